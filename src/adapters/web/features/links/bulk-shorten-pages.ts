import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ValidationError, type FieldErrors } from '../../../../core/shared/errors.ts';
import type { LinkInput } from '../../../../core/links/link-input.ts';
import { LinkBody } from '../../../shared/schemas/link.ts';
import { Nullable } from '../../../shared/schemas/common.ts';
import { fieldErrorsOf } from '../../../shared/input/validation-errors.ts';
import { shortUrl } from '../../../shared/presenters/link-record.ts';
import { appLayout } from '../../ui/layout.ts';
import { ownedChoices } from '../../ui/owned-choices.ts';
import { keepPostedForm, type PostedForm } from '../../ui/posted-form.ts';
import { sendView } from '../../app/respond.ts';
import { csrfCheck } from '../../app/csrf-check.ts';
import { viewOf, viewerOf, type View } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import { BULK_MAX_LINES, csvEntries, textEntries, type BulkEntry, type CsvProblem } from './bulk-input.ts';
import { decodeResults, resultCsv, type BulkRow } from './bulk-result.ts';
import { BULK_BYTES, readMultipartForm, registerUploads, type Upload } from './bulk-upload.ts';
import { bulkForm, bulkResult } from './bulk-view.ts';
import { webActor } from '../../app/audit-actor.ts';
import { formRoute } from '../../app/form-route.ts';

/** The options every line shares: the API's link fields of the same names, under its schema. */
const SHARED = [
  'domain',
  'space',
  'pixels',
  'disabled',
  'expiration_date',
  'expiration_time',
  'expiration_clicks',
] as const;
const BulkBody = Type.Object({
  ...Type.Pick(LinkBody, SHARED).properties,
  urls: Type.Optional(Nullable(Type.String({ maxLength: BULK_BYTES }))),
});

/** Room for the URLs and the form's other fields, posted form-encoded; the app's default is 64 KiB. */
const BULK_BODY_LIMIT = BULK_BYTES + 64 * 1024;
/** The result posted back for its CSV: every URL, short URL and message, JSON-escaped. */
const RESULT_BODY_LIMIT = 3 * BULK_BYTES;

type Problem = { field: string; message: string };

/** The lines to shorten (the text, or the CSV file), or the one problem with them. */
function entriesOf(view: View, text: unknown, upload: Upload): { entries: BulkEntry[] } | Problem {
  const b = view.t.bulk;
  const uploadProblem = Object.entries(upload.problems)[0];
  if (uploadProblem) {
    const [field, problem] = uploadProblem;
    return { field, message: problem === 'notUtf8' ? b.notUtf8 : b.tooLarge(field) };
  }
  const hasText = typeof text === 'string' && text.trim() !== '';
  if (hasText && upload.file !== null) return { field: 'file', message: b.both };
  let field = 'urls';
  let entries: BulkEntry[] = [];
  if (upload.file !== null) {
    field = 'file';
    const parsed = csvEntries(upload.file);
    if ('problem' in parsed) return { field, message: csvMessage(view, parsed.problem) };
    entries = parsed.entries;
  } else if (hasText) {
    entries = textEntries(text);
  }
  if (entries.length === 0) return { field, message: b.nothing };
  if (entries.length > BULK_MAX_LINES) return { field, message: b.tooMany(field, BULK_MAX_LINES, entries.length) };
  return { entries };
}

function csvMessage(view: View, problem: CsvProblem): string {
  const b = view.t.bulk;
  if (problem.kind === 'noUrlColumn') return b.noUrlColumn;
  if (problem.kind === 'unknownColumns') return b.unknownColumns(problem.names.join(', '));
  return b.badCsv(problem.line);
}

/** Rows of the schema's findings on the body (anything else about the request is not a form's fault). */
function schemaFaults(request: FastifyRequest): FieldErrors {
  const failure = request.validationError as (Error & { validationContext?: string; validation?: unknown }) | undefined;
  if (!failure) return {};
  if (failure.validationContext !== 'body' || !Array.isArray(failure.validation)) throw failure;
  return fieldErrorsOf(failure.validation);
}

/** The bulk form as sent: its file apart, its fields as typed (the body then folded for the schema). */
interface BulkForm {
  upload: Upload;
  typed: PostedForm;
}

async function readBulkForm(request: FastifyRequest): Promise<BulkForm> {
  const upload = await readMultipartForm(request);
  return { upload, typed: keepPostedForm(request) };
}

async function renderBulkForm(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  status: number,
  values?: PostedForm,
  errors?: FieldErrors,
) {
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  const choices = await ownedChoices(ctx, viewerOf(request).workspace.id, view.t.bulk);
  return sendView(
    reply,
    status,
    appLayout(view, { title: view.t.bulk.title, section: '/links', main: bulkForm(view, choices, values, errors) }),
  );
}

/** Each line through the API's rules and service; one line's failure leaves the others alone. */
async function shortenEach(
  request: FastifyRequest,
  ctx: WebContext,
  view: View,
  shared: LinkInput,
  entries: readonly BulkEntry[],
): Promise<BulkRow[]> {
  const { workspace: account } = viewerOf(request);
  const rows: BulkRow[] = [];
  for (const entry of entries) {
    const input: LinkInput = { ...shared, url: entry.url };
    if (entry.alias !== undefined) input.alias = entry.alias;
    if (entry.title !== undefined) input.title = entry.title;
    try {
      const created = await ctx.links.create(account.id, account.timezone, input, webActor(request));
      rows.push({ line: entry.line, url: entry.url, shortUrl: shortUrl(created, ctx.urls), errors: [] });
    } catch (error) {
      if (error instanceof ValidationError) {
        rows.push({ line: entry.line, url: entry.url, shortUrl: null, errors: Object.values(error.fields).flat() });
      } else {
        // The links made so far are made: the page must still say which, so the line says it failed.
        request.log.error({ err: error }, 'bulk shortening: a line failed');
        rows.push({ line: entry.line, url: entry.url, shortUrl: null, errors: [view.t.bulk.rowFailed] });
      }
    }
  }
  return rows;
}

async function sendResultCsv(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const rows = decodeResults((request.body as PostedForm | undefined)?.results);
  if (rows === null) {
    const view = viewOf(request, reply, ctx.web.csrfSecret);
    const b = view.t.bulk;
    return renderBulkForm(request, reply, ctx, 422, {}, { file: [b.resultUnreadable] });
  }
  return reply
    .code(200)
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', 'attachment; filename="bulk-links.csv"')
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(resultCsv(rows));
}

/**
 * A form-encoded list past the body limit is the list's fault: say so on the form (the body is
 * refused before the access and CSRF checks run, so only to a signed-in viewer).
 */
async function refuseTooLargeList(error: FastifyError, request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE' || !request.viewer) throw error;
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  return renderBulkForm(request, reply, ctx, 422, {}, { urls: [view.t.bulk.tooLarge('urls')] });
}

/** The shared options the schema let through and every fault of the form (schema, list, link rules). */
async function bulkFaults(request: FastifyRequest, ctx: WebContext, view: View, upload: Upload) {
  const { workspace: account } = viewerOf(request);
  const form = (request.body ?? {}) as Record<string, unknown>;
  const errors: FieldErrors = schemaFaults(request);
  const bad = new Set(Object.keys(errors).map((field) => field.split('.')[0]));
  const list = bad.has('urls') ? null : entriesOf(view, form.urls, upload);
  if (list !== null && !('entries' in list)) (errors[list.field] ??= []).push(list.message);
  // The shared options the schema let through, under the link rules without a URL: their
  // faults refuse the whole list (and are listed with the schema's, so every bad field shows).
  const shared = Object.fromEntries(
    SHARED.filter((k) => form[k] !== undefined && !bad.has(k)).map((k) => [k, form[k]]),
  ) as LinkInput;
  if (!bad.has('body')) {
    const faults = await ctx.links.faultsOf(account.id, account.timezone, shared);
    delete faults.url;
    for (const [field, messages] of Object.entries(faults)) errors[field] ??= messages;
  }
  return { errors, shared, entries: list !== null && 'entries' in list ? list.entries : null };
}

async function shortenBulk(request: FastifyRequest, reply: FastifyReply, ctx: WebContext, form: BulkForm) {
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  const { errors, shared, entries } = await bulkFaults(request, ctx, view, form.upload);
  if (Object.keys(errors).length === 0 && entries !== null) {
    const rows = await shortenEach(request, ctx, view, shared, entries);
    return sendView(
      reply,
      200,
      appLayout(view, { title: view.t.bulk.resultTitle, section: '/links', main: bulkResult(view, rows) }),
    );
  }
  return renderBulkForm(request, reply, ctx, 422, form.typed, errors);
}

/** GET/POST /links/bulk and the CSV of a result (POST /links/bulk/result.csv). */
export const bulkShortenPages: WebFeature = (web, ctx: WebContext) => {
  const secret = ctx.web.csrfSecret;
  const bulk = formRoute(readBulkForm, (request, reply, form) => shortenBulk(request, reply, ctx, form));

  web.get('/links/bulk', (request, reply) => renderBulkForm(request, reply, ctx, 200));
  web.post('/links/bulk/result.csv', { bodyLimit: RESULT_BODY_LIMIT }, (request, reply) =>
    sendResultCsv(request, reply, ctx),
  );

  // The multipart parser exists in this scope only: no other route of the app takes uploads.
  void web.register(async (scope) => {
    await registerUploads(scope);
    scope.post(
      '/links/bulk',
      {
        bodyLimit: BULK_BODY_LIMIT,
        attachValidation: true,
        schema: { body: BulkBody },
        config: { csrf: 'multipart' },
        // The token is checked once the multipart body is read; the form is kept (and its body
        // folded) first, which leaves a token as sent (only a blank one becomes null: refused alike).
        preValidation: [bulk.preValidation, csrfCheck(secret)],
        // Fastify awaits an error handler's promise; its declared type says void.
        // eslint-disable-next-line @typescript-eslint/no-misused-promises
        errorHandler: (error: FastifyError, request, reply) => refuseTooLargeList(error, request, reply, ctx),
      },
      bulk.handler,
    );
  });
};
