import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { TitleFetcher } from '../../core/links/title-fetcher.ts';
import { isPublicAddress } from './address-policy.ts';
import { extractTitle } from './extract-title.ts';

export interface HttpTitleFetcherOptions {
  /** Lets the fetcher reach loopback, private and other non-public addresses. */
  allowPrivate: boolean;
  /** Budget for the whole fetch: DNS, connects, redirects and body. */
  timeoutMs?: number;
  /** Most (decoded) body bytes read while looking for the title. */
  maxBytes?: number;
  userAgent?: string;
  /** Replaces the address check implied by allowPrivate; meant for tests. */
  isAllowedAddress?: (ip: string) => boolean;
  /** Replaces DNS resolution (same contract as dns.lookup); meant for tests. */
  lookup?: LookupFunction;
}

const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_MAX_BYTES = 256 * 1024;
const DEFAULT_USER_AGENT = 'Mozilla/5.0 (compatible; linkpix title fetcher)';
const MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const TITLE_END = /<\/title\s*>/i;
// How many bytes of the previous chunk to rescan, so a "</title>" split
// across chunks is still seen (allows a little whitespace before '>').
const TITLE_END_OVERLAP = 32;

/**
 * Fetches pages over http(s) to learn their <title>, refusing to talk to
 * non-public addresses unless allowed. The address check runs inside the
 * socket's DNS lookup, so the address that was checked is the one connected
 * to: a second, different DNS answer (rebinding) never gets a say.
 */
export class HttpTitleFetcher implements TitleFetcher {
  private readonly isAllowed: (ip: string) => boolean;
  private readonly lookup: LookupFunction;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly userAgent: string;

  constructor(options: HttpTitleFetcherOptions) {
    this.isAllowed = options.isAllowedAddress ?? (options.allowPrivate ? () => true : isPublicAddress);
    this.lookup = guardedLookup(this.isAllowed, options.lookup ?? (dnsLookup as LookupFunction));
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  }

  async fetchTitle(url: string): Promise<string | null> {
    // One abort signal bounds everything; a hung getaddrinfo keeps its
    // thread busy, but the caller gets its answer on time regardless.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      return await this.follow(url, controller.signal);
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
      // Tears down anything still open, whichever way we got here.
      controller.abort();
    }
  }

  private async follow(url: string, signal: AbortSignal): Promise<string | null> {
    let target = this.checkUrl(url);
    for (let redirects = 0; target !== null; redirects++) {
      const response = await this.request(target, signal);
      const status = response.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status)) {
        response.destroy();
        const location = response.headers.location;
        if (location === undefined || redirects >= MAX_REDIRECTS) return null;
        target = this.checkUrl(new URL(location, target).href);
        continue;
      }
      const contentType = response.headers['content-type'] ?? '';
      if (status < 200 || status > 299 || !isHtml(contentType)) {
        response.destroy();
        return null;
      }
      const body = await readHead(response, this.maxBytes, signal);
      return extractTitle(decodeBody(body, contentType));
    }
    return null;
  }

  /** Rejects what must never be requested, before any socket exists. */
  private checkUrl(url: string): URL | null {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    // Node connects to IP literals without calling lookup, so they have to
    // be checked here. URL has already canonicalised forms like 0x7f.1.
    const host = bareHost(parsed);
    if (isIP(host) !== 0 && !this.isAllowed(host)) return null;
    return parsed;
  }

  private request(target: URL, signal: AbortSignal): Promise<http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      const client = target.protocol === 'https:' ? https : http;
      const request = client.request(
        {
          protocol: target.protocol,
          hostname: bareHost(target),
          port: target.port === '' ? undefined : Number(target.port),
          path: `${target.pathname}${target.search}`,
          method: 'GET',
          headers: {
            'user-agent': this.userAgent,
            accept: 'text/html, application/xhtml+xml;q=0.9',
          },
          // A fresh agent per request: no pooled socket can outlive its check.
          agent: false,
          lookup: this.lookup,
          signal,
        },
        resolve,
      );
      request.on('error', reject);
      request.end();
    });
  }
}

/**
 * Wraps a dns.lookup-style function so that only allowed addresses ever reach
 * the socket. Non-allowed answers are dropped; if none remain the lookup
 * fails. Handles both the single-answer and the `all: true` calling styles
 * (Node asks for all answers when autoSelectFamily is on).
 */
export function guardedLookup(isAllowed: (ip: string) => boolean, resolve: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, answer) => {
      if (error) {
        callback(error, '');
        return;
      }
      const answers = typeof answer === 'string' ? [{ address: answer, family: isIP(answer) }] : answer;
      const allowed = answers.filter((entry) => isAllowed(entry.address));
      const first = allowed[0];
      if (first === undefined) {
        const blocked: NodeJS.ErrnoException = new Error(`${hostname} resolves only to disallowed addresses`);
        blocked.code = 'EADDRBLOCKED';
        callback(blocked, '');
        return;
      }
      if (options.all) callback(null, allowed);
      else callback(null, first.address, first.family);
    });
  };
}

/** URL keeps IPv6 hosts in brackets; sockets and isIP want them bare. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function isHtml(contentType: string): boolean {
  const mediaType = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return HTML_TYPES.has(mediaType);
}

/**
 * Reads the body until the title has been closed, the cap is reached or the
 * body ends, whichever is first, then drops the connection.
 */
function readHead(response: http.IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const body = decodedStream(response);
    if (body === null) {
      response.destroy();
      reject(new Error('unsupported content-encoding'));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let previousTail = '';

    const cleanUp = (): void => {
      signal.removeEventListener('abort', onAbort);
      body.removeListener('data', onData);
      body.removeListener('end', onEnd);
      response.destroy();
      body.destroy();
    };
    const onEnd = (): void => {
      cleanUp();
      resolve(Buffer.concat(chunks));
    };
    const onAbort = (): void => {
      cleanUp();
      reject(new Error('aborted'));
    };
    const onError = (error: Error): void => {
      cleanUp();
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      const piece = chunk.subarray(0, maxBytes - size);
      chunks.push(piece);
      size += piece.length;
      // latin1 maps bytes 1:1, so ASCII markup is found whatever the charset.
      const text = previousTail + piece.toString('latin1');
      previousTail = text.slice(-TITLE_END_OVERLAP);
      if (size >= maxBytes || TITLE_END.test(text)) onEnd();
    };

    signal.addEventListener('abort', onAbort, { once: true });
    body.on('data', onData);
    body.on('end', onEnd);
    // Errors after we are done (from destroy) are expected; keep a listener.
    body.on('error', onError);
    if (body !== response) response.on('error', onError);
    if (signal.aborted) onAbort();
  });
}

/** We never ask for compression, but some servers send it anyway. */
function decodedStream(response: http.IncomingMessage): Readable | null {
  const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  let decoder: Readable & NodeJS.WritableStream;
  switch (encoding) {
    case 'identity':
    case '':
      return response;
    case 'gzip':
    case 'x-gzip':
      decoder = zlib.createGunzip();
      break;
    case 'deflate':
      decoder = zlib.createInflate();
      break;
    case 'br':
      decoder = zlib.createBrotliDecompress();
      break;
    default:
      return null;
  }
  return response.pipe(decoder);
}

/**
 * Decodes with the declared charset when it is one we trust to be declared
 * correctly and can decode; everything else is read as UTF-8.
 */
function decodeBody(body: Buffer, contentType: string): string {
  const encoding = supportedEncoding(charsetParam(contentType) ?? metaCharset(body));
  const text = new TextDecoder(encoding).decode(body);
  return encoding === 'windows-1252' ? text.replace(/[\u0080-\u009f]/g, windows1252Fix) : text;
}

// Node 20's TextDecoder decodes windows-1252 as plain ISO-8859-1, leaving
// bytes 0x80-0x9F as C1 controls (nodejs/node#56542). These are the proper
// characters, indexed by byte - 0x80; the five unassigned bytes map to
// themselves, as in the WHATWG table, so fixed Node versions are unaffected.
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function windows1252Fix(char: string): string {
  return WINDOWS_1252_HIGH[char.charCodeAt(0) - 0x80] ?? char;
}

function charsetParam(contentType: string): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return match?.[1] ?? null;
}

/** Finds <meta charset=…> or the http-equiv form near the top of the page. */
function metaCharset(body: Buffer): string | null {
  const head = body.subarray(0, 2048).toString('latin1');
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([a-z0-9_:.-]+)/i.exec(head);
  return match?.[1] ?? null;
}

function supportedEncoding(charset: string | null): 'utf-8' | 'windows-1252' {
  switch (charset?.toLowerCase()) {
    // The WHATWG Encoding standard treats all of these labels as windows-1252.
    case 'latin1':
    case 'iso-8859-1':
    case 'iso8859-1':
    case 'windows-1252':
    case 'cp1252':
      return 'windows-1252';
    default:
      return 'utf-8';
  }
}
