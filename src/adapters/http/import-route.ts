import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ON_CONFLICT, type OnConflict } from '../../core/links/import/import-row.ts';
import { ValidationError } from '../../core/shared/errors.ts';
import { importFile } from '../import/import-file.ts';
import { IMPORT_FORMAT_NAMES } from '../import/formats.ts';
import { ImportBusyError, RETRY_AFTER_SECONDS } from '../import/import-slots.ts';
import { ImportLeaseLostError } from '../import/import-ticket.ts';
import { importTempDir } from '../import/import-temp.ts';
import { spoolForm } from '../shared/input/import-upload.ts';
import { errorEnvelope } from '../shared/errors/error-handler.ts';
import type { ApiContext } from './handlers/context.ts';
import { MALFORMED_MULTIPART_MESSAGE } from '../shared/input/malformed-multipart.ts';
import { errorResponses } from '../shared/schemas/common.ts';
import { apiActor } from './audit-actor.ts';

const FLAGS = ['0', '1', 'true', 'false', ''];
const isOn = (v: string | undefined) => v === '1' || v === 'true';

/** What a refused import is answered: 429 while another runs, 503 once it lost its lease midway. */
function refusal(error: unknown, reply: FastifyReply) {
  if (error instanceof ImportBusyError) {
    reply.code(429).header('retry-after', String(error.retryAfterSeconds));
    return errorEnvelope(429, error.message);
  }
  if (error instanceof ImportLeaseLostError) {
    reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS));
    return errorEnvelope(503, error.message);
  }
  return null;
}

export interface ImportRouteLimits {
  /** The largest file taken (IMPORT_MAX_BYTES). */
  maxBytes: number;
  /** How long the form has to arrive whole once the route has it: less than the request timeout (upload-window.ts). */
  spoolMs: number;
}

/** The route's schema: the body documents the form (the handler reads and checks the parts as they stream). */
const IMPORT_SCHEMA = {
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
        description:
          'Refuse a file without an alias column, and rows without an alias, rather than give random aliases',
      },
    },
  },
  response: {
    200: {
      description:
        'The report: format, columns, warnings, counts and the rows not imported as the file says (docs/api.md §15)',
      type: 'object',
      additionalProperties: true,
    },
    ...errorResponses,
  },
};

type Spooled = Awaited<ReturnType<typeof spoolForm>>;

/**
 * The answer to a form that did not arrive whole (too large, malformed, too slow); null when it did.
 * Returned, not sent: the answer goes out once the leases are given back, so a client that tries
 * again on it finds them free.
 */
function unreadAnswer(form: Spooled, reply: FastifyReply, { maxBytes, spoolMs }: ImportRouteLimits) {
  if (form === 'tooLarge') {
    reply.code(413);
    return errorEnvelope(413, `The file is larger than ${maxBytes} bytes, the most an import takes.`);
  }
  if (form === 'malformed') {
    reply.code(400);
    return errorEnvelope(400, MALFORMED_MULTIPART_MESSAGE);
  }
  if (form === 'late') {
    reply.code(408);
    return errorEnvelope(
      408,
      `The file did not arrive within ${Math.round(spoolMs / 1000)} s, the most an upload may take; nothing was imported.`,
    );
  }
  return null;
}

/** The form's fields as the import reads them; a 422 naming each bad one. */
function importOptionsOf({ fields, file }: Exclude<Spooled, string>) {
  const onConflict = (fields.on_conflict || 'skip') as OnConflict;
  const bag: Record<string, string[]> = {};
  if (!file) bag.file = ['The file field is required.'];
  if (!ON_CONFLICT.includes(onConflict))
    bag.on_conflict = [`The on conflict must be one of: ${ON_CONFLICT.join(', ')}.`];
  if (fields.format && !IMPORT_FORMAT_NAMES.includes(fields.format))
    bag.format = [`The format must be one of: ${IMPORT_FORMAT_NAMES.join(', ')}.`];
  if (fields.dry_run !== undefined && !FLAGS.includes(fields.dry_run))
    bag.dry_run = ['The dry run field must be true or false.'];
  if (fields.strict !== undefined && !FLAGS.includes(fields.strict))
    bag.strict = ['The strict field must be true or false.'];
  if (Object.keys(bag).length > 0) throw new ValidationError(bag);
  return {
    format: fields.format || undefined,
    onConflict,
    dryRun: isOn(fields.dry_run),
    strict: isOn(fields.strict),
  };
}

/** The route's handler: the leases claimed, the file spooled to disk, then a slot and the thread that reads it. */
async function importLinks(request: FastifyRequest, reply: FastifyReply, ctx: ApiContext, limits: ImportRouteLimits) {
  const { spoolMs } = limits;
  if (!request.isMultipart())
    throw ValidationError.of('file', 'Send the file as multipart/form-data in a field named file.');
  let ticket;
  try {
    ticket = await ctx.importSlots.claim({ workspaceId: request.account.id, personId: request.actor.userId }, spoolMs);
  } catch (error) {
    const refused = refusal(error, reply);
    if (refused === null) throw error;
    return refused;
  }
  // Everything after the claim is inside the try: a failure anywhere releases it.
  let dir: string | undefined;
  try {
    dir = await importTempDir();
    const form = await spoolForm(request, join(dir, 'upload'), spoolMs);
    const unread = unreadAnswer(form, reply, limits);
    if (unread !== null || typeof form === 'string') return unread;
    const options = importOptionsOf(form);
    // The file is on disk: only now an instance slot.
    await ticket.start();
    const report = await importFile(ctx.importer, request.account, join(dir, 'upload'), {
      format: options.format,
      onConflict: options.onConflict,
      actor: { ...apiActor(request), via: 'import' },
      dryRun: options.dryRun,
      strict: options.strict,
      urlSchemes: ctx.urlSchemes,
      lease: ticket,
    });
    return { data: report, status: 200 as const };
  } catch (error) {
    const refused = refusal(error, reply);
    if (refused === null) throw error;
    return refused;
  } finally {
    await ticket.release();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  }
}

/**
 * POST /api/v1/links/import (api.md §15), in a scope of its own: the multipart parser and its
 * size limit exist for this route only. On arrival the workspace's and the person's leases are
 * claimed; the file goes to a temporary file as it arrives, holding no instance slot; once it is
 * on disk the slot is taken and the file read, parsed and checked in a thread of its own
 * (docs/design/imports.md, docs/design/import-files.md).
 */
export async function registerImportRoute(
  api: FastifyInstance,
  ctx: ApiContext,
  limits: ImportRouteLimits,
): Promise<void> {
  await api.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: limits.maxBytes, files: 1, fields: 10, parts: 11, fieldNameSize: 100, fieldSize: 1000 },
    });
    scope.post(
      '/api/v1/links/import',
      // The handler checks the form's parts itself, as they stream.
      { validatorCompiler: () => () => true, schema: IMPORT_SCHEMA },
      (request: FastifyRequest, reply: FastifyReply) => importLinks(request, reply, ctx, limits),
    );
  });
}
