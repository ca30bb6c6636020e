import sniffEncoding from 'html-encoding-sniffer';
import { decode } from 'whatwg-encoding';

/**
 * Decodes an HTML page as a browser does (the HTML standard's encoding sniffing): a byte order
 * mark first, then the Content-Type's charset, then a <meta charset> or http-equiv in the first
 * 1024 bytes, else UTF-8. Labels are the Encoding standard's (latin1 is windows-1252, and so on).
 */
export function decodePage(body: Uint8Array, contentType: string): string {
  const transportLayerEncodingLabel = charsetParam(contentType);
  const encoding = sniffEncoding(body, {
    defaultEncoding: 'UTF-8',
    ...(transportLayerEncodingLabel ? { transportLayerEncodingLabel } : {}),
  });
  try {
    return decode(body, encoding);
  } catch {
    // An encoding of the standard iconv-lite cannot decode (the "replacement" one, say).
    return decode(body, 'UTF-8');
  }
}

function charsetParam(contentType: string): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return match?.[1] ?? null;
}
