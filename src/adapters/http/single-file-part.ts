import type { FastifyRequest } from 'fastify';
import { MalformedMultipartError, isMalformedMultipart } from '../shared/input/malformed-multipart.ts';

/** The one file of a multipart body an upload route takes: its bytes (none, or an empty part) and whether it was cut at the limit. */
export interface SingleFile {
  bytes: Uint8Array | null;
  tooLarge: boolean;
}

/**
 * Reads the first file part named `field` whole (the route's multipart limit bounds it; other
 * parts are drained and skipped). A file over the limit reads as tooLarge, a body multipart
 * cannot parse as MalformedMultipartError (a 400). The caller checks isMultipart() first.
 */
export async function readSingleFile(request: FastifyRequest, field: string): Promise<SingleFile> {
  const upload: SingleFile = { bytes: null, tooLarge: false };
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== field || upload.bytes !== null) {
        part.file.resume();
        continue;
      }
      const bytes = await part.toBuffer();
      if (part.file.truncated) upload.tooLarge = true;
      else upload.bytes = bytes;
    }
  } catch (error) {
    if (isMalformedMultipart(error)) throw new MalformedMultipartError(error);
    if ((error as { code?: unknown } | null)?.code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
    upload.tooLarge = true;
  }
  return upload;
}
