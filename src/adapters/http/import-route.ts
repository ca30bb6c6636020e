import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { ON_CONFLICT, type OnConflict } from '../../core/links/import/import-row.ts';
import { ValidationError } from '../../core/shared/errors.ts';
import { importFile } from '../import/import-file.ts';
import { HEAD_BYTES, IMPORT_FORMAT_NAMES } from '../import/formats.ts';
import { errorEnvelope } from './error-handler.ts';
import type { ApiContext } from './handlers/context.ts';
import { errorResponses } from './schemas/common.ts';

const isTooLarge = (error: unknown) => (error as { code?: unknown } | null)?.code === 'FST_REQ_FILE_TOO_LARGE';

/** A multipart form's text fields and its one `file`, read up to the limit (the parser stops there). */
async function readForm(request: FastifyRequest): Promise<{ fields: Record<string, string>; file: Buffer | null }> {
  const fields: Record<string, string> = {};
  let file: Buffer | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      if (part.fieldname === 'file') file = bytes;
    } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
  }
  return { fields, file };
}

/**
 * POST /api/v1/links/import (api.md §15), in a scope of its own: the multipart parser and its
 * size limit exist for this route only. The file is held in memory, at most IMPORT_MAX_BYTES.
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
            },
          },
          response: {
            200: { description: 'The report: format, dry_run, counts and a row per line (docs/api.md §15)', type: 'object', additionalProperties: true },
            ...errorResponses,
          },
        },
      },
      async (request: FastifyRequest, reply: FastifyReply) => {
        if (!request.isMultipart()) throw ValidationError.of('file', 'Send the file as multipart/form-data in a field named file.');
        let form;
        try {
          form = await readForm(request);
        } catch (error) {
          if (!isTooLarge(error)) throw error;
          return reply.code(413).send(errorEnvelope(413, `The file is larger than ${maxBytes} bytes, the most an import takes.`));
        }
        const { fields, file } = form;
        const onConflict = (fields.on_conflict || 'skip') as OnConflict;
        const bag: Record<string, string[]> = {};
        if (!file || file.length === 0) bag.file = ['The file field is required.'];
        if (!ON_CONFLICT.includes(onConflict)) bag.on_conflict = [`The on conflict must be one of: ${ON_CONFLICT.join(', ')}.`];
        if (fields.format && !IMPORT_FORMAT_NAMES.includes(fields.format)) bag.format = [`The format must be one of: ${IMPORT_FORMAT_NAMES.join(', ')}.`];
        if (fields.dry_run !== undefined && !['0', '1', 'true', 'false', ''].includes(fields.dry_run)) bag.dry_run = ['The dry run field must be true or false.'];
        if (Object.keys(bag).length > 0) throw new ValidationError(bag);
        const data = file!;
        const report = await importFile(
          ctx.importer,
          request.account,
          { stream: () => Readable.from([data]), text: async () => data.toString('utf8') },
          data.subarray(0, HEAD_BYTES),
          { format: fields.format || undefined, onConflict, dryRun: fields.dry_run === '1' || fields.dry_run === 'true' },
        );
        return { data: report, status: 200 as const };
      },
    );
  });
}
