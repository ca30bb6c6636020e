import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ON_CONFLICT, type OnConflict } from '../../core/links/import/import-row.ts';
import { ValidationError } from '../../core/shared/errors.ts';
import { importFile } from '../import/import-file.ts';
import { IMPORT_FORMAT_NAMES } from '../import/formats.ts';
import { ImportBusyError } from '../import/import-slots.ts';
import { errorEnvelope } from './error-handler.ts';
import type { ApiContext } from './handlers/context.ts';
import { MALFORMED_MULTIPART_MESSAGE, isMalformedMultipart } from './malformed-multipart.ts';
import { errorResponses } from './schemas/common.ts';
import { apiActor } from './audit-actor.ts';

const isTooLarge = (error: unknown) => (error as { code?: unknown } | null)?.code === 'FST_REQ_FILE_TOO_LARGE';

const FLAGS = ['0', '1', 'true', 'false', ''];
const isOn = (v: string | undefined) => v === '1' || v === 'true';

/** Why a form could not be read whole. */
type Unread = 'tooLarge' | 'malformed';

/**
 * A multipart form's text fields, and its one `file` written to `path` as it arrives (never held
 * in memory), up to the parser's limit.
 */
async function readForm(request: FastifyRequest, path: string): Promise<{ fields: Record<string, string>; file: number | null } | Unread> {
  const fields: Record<string, string> = {};
  let file: number | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file !== null) {
          part.file.resume();
          continue;
        }
        const out = createWriteStream(path);
        await pipeline(part.file, out);
        if (part.file.truncated) return 'tooLarge';
        file = out.bytesWritten;
      } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
  } catch (error) {
    if (isTooLarge(error)) return 'tooLarge';
    if (isMalformedMultipart(error)) return 'malformed';
    throw error;
  }
  return { fields, file };
}

/**
 * POST /api/v1/links/import (api.md §15), in a scope of its own: the multipart parser and its
 * size limit exist for this route only. The file goes to a temporary file as it arrives, and is
 * read, parsed and checked in a thread of its own (docs/adr/0048); the slot (one import per
 * account, IMPORT_CONCURRENCY per instance) is taken before the body is read.
 */
export async function registerImportRoute(api: FastifyInstance, ctx: ApiContext, maxBytes: number): Promise<void> {
  await api.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 11, fieldNameSize: 100, fieldSize: 1000 } });
    scope.post(
      '/api/v1/links/import',
      {
        // The body schema documents the form; the handler reads and checks the parts as they stream.
        validatorCompiler: () => () => true,
        schema: {
          tags: ['Links'],
          security: [{ bearerAuth: [] }],
          summary: "Import links from a file: linkpix's export or another shortener's",
          consumes: ['multipart/form-data'],
          body: {
            type: 'object',
            required: ['file'],
            properties: {
              file: { type: 'string', format: 'binary', description: 'The file, at most IMPORT_MAX_BYTES' },
              format: { type: 'string', enum: IMPORT_FORMAT_NAMES, description: 'Detected from the file when absent' },
              on_conflict: { type: 'string', enum: ON_CONFLICT, default: 'skip' },
              dry_run: { type: 'string', enum: ['true', 'false', '1', '0'] },
              strict: {
                type: 'string',
                enum: ['true', 'false', '1', '0'],
                description: 'Refuse a file without an alias column, and rows without an alias, rather than give random aliases',
              },
            },
          },
          response: {
            200: {
              description: 'The report: format, columns, warnings, counts and the rows not imported as the file says (docs/api.md §15)',
              type: 'object',
              additionalProperties: true,
            },
            ...errorResponses,
          },
        },
      },
      async (request: FastifyRequest, reply: FastifyReply) => {
        if (!request.isMultipart()) throw ValidationError.of('file', 'Send the file as multipart/form-data in a field named file.');
        let slot;
        try {
          slot = await ctx.importSlots.acquire(request.account.id);
        } catch (error) {
          if (!(error instanceof ImportBusyError)) throw error;
          return reply.code(429).header('retry-after', String(error.retryAfterSeconds)).send(errorEnvelope(429, error.message));
        }
        // Everything after the slot is taken is inside the try: a failure anywhere releases it.
        let dir: string | undefined;
        try {
          dir = await mkdtemp(join(tmpdir(), 'linkpix-import-'));
          const form = await readForm(request, join(dir, 'upload'));
          // Returned, not sent: the answer goes out once `finally` has given the slot back, so a
          // client that tries again on it finds the slot free.
          if (form === 'tooLarge') {
            reply.code(413);
            return errorEnvelope(413, `The file is larger than ${maxBytes} bytes, the most an import takes.`);
          }
          if (form === 'malformed') {
            reply.code(400);
            return errorEnvelope(400, MALFORMED_MULTIPART_MESSAGE);
          }
          const { fields, file } = form;
          const onConflict = (fields.on_conflict || 'skip') as OnConflict;
          const bag: Record<string, string[]> = {};
          if (!file) bag.file = ['The file field is required.'];
          if (!ON_CONFLICT.includes(onConflict)) bag.on_conflict = [`The on conflict must be one of: ${ON_CONFLICT.join(', ')}.`];
          if (fields.format && !IMPORT_FORMAT_NAMES.includes(fields.format)) bag.format = [`The format must be one of: ${IMPORT_FORMAT_NAMES.join(', ')}.`];
          if (fields.dry_run !== undefined && !FLAGS.includes(fields.dry_run)) bag.dry_run = ['The dry run field must be true or false.'];
          if (fields.strict !== undefined && !FLAGS.includes(fields.strict)) bag.strict = ['The strict field must be true or false.'];
          if (Object.keys(bag).length > 0) throw new ValidationError(bag);
          const report = await importFile(ctx.importer, request.account, join(dir, 'upload'), {
            format: fields.format || undefined,
            onConflict,
            actor: { ...apiActor(request), via: 'import' },
            dryRun: isOn(fields.dry_run),
            strict: isOn(fields.strict),
            urlSchemes: ctx.urlSchemes,
          });
          return { data: report, status: 200 as const };
        } finally {
          await slot.release();
          if (dir !== undefined) await rm(dir, { recursive: true, force: true });
        }
      },
    );
  });
}
