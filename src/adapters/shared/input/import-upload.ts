import type { FastifyRequest } from 'fastify';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { isMalformedMultipart } from './malformed-multipart.ts';

const isTooLarge = (error: unknown) => (error as { code?: unknown } | null)?.code === 'FST_REQ_FILE_TOO_LARGE';

/** A form read whole: its text fields, and the size of its `file` on disk (null: none sent). */
export interface SpooledForm {
  fields: Record<string, string>;
  file: number | null;
}

/** Why a form could not be read whole: over the size limit, not well-formed, or not whole within its time. */
export type Unread = 'tooLarge' | 'malformed' | 'late';

/**
 * A multipart form's text fields, and its one `file` written to `path` as it arrives (never held
 * in memory), up to the parser's size limit and within `withinMs` (docs/design/imports.md): a
 * form still arriving then is given up ('late'), its file stream torn down; the bytes still
 * coming are the lingering close's (lingering-close.ts).
 */
export async function spoolForm(
  request: FastifyRequest,
  path: string,
  withinMs: number,
): Promise<SpooledForm | Unread> {
  const late = new AbortController();
  // 0: no time limit (no request timeout either).
  const timer = withinMs > 0 ? setTimeout(() => late.abort(), withinMs) : undefined;
  const gaveUp = new Promise<'late'>((resolve) =>
    late.signal.addEventListener('abort', () => resolve('late'), { once: true }),
  );
  try {
    return await readForm(request, path, late.signal, gaveUp);
  } finally {
    clearTimeout(timer);
  }
}

async function readForm(
  request: FastifyRequest,
  path: string,
  signal: AbortSignal,
  gaveUp: Promise<'late'>,
): Promise<SpooledForm | Unread> {
  const fields: Record<string, string> = {};
  let file: number | null = null;
  const parts = request.parts()[Symbol.asyncIterator]();
  try {
    for (;;) {
      // The next part may never come (a client that stops sending): waited for only until the time is up.
      const next = parts.next();
      const step = await Promise.race([next, gaveUp]);
      if (step === 'late') {
        // Settled once the connection closes; nothing waits for it.
        next.catch(() => {});
        return 'late';
      }
      if (step.done) break;
      const part = step.value;
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file !== null) {
          part.file.resume();
          continue;
        }
        const out = createWriteStream(path);
        await pipeline(part.file, out, { signal });
        if (part.file.truncated) return 'tooLarge';
        file = out.bytesWritten;
      } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
  } catch (error) {
    if (signal.aborted) return 'late';
    if (isTooLarge(error)) return 'tooLarge';
    if (isMalformedMultipart(error)) return 'malformed';
    throw error;
  }
  return { fields, file };
}
