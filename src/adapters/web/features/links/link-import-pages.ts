import type { FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ON_CONFLICT, type OnConflict } from '../../../../core/links/import/import-row.ts';
import { ValidationError, type FieldErrors } from '../../../../core/shared/errors.ts';
import { randomToken } from '../../../../core/shared/secrets.ts';
import { importFile, type ImportFileReport } from '../../../import/import-file.ts';
import { IMPORT_FORMAT_NAMES } from '../../../import/formats.ts';
import { ImportBusyError } from '../../../import/import-slots.ts';
import { ImportLeaseLostError, type ImportTicket } from '../../../import/import-ticket.ts';
import { importTempDir } from '../../../import/import-temp.ts';
import { spoolForm } from '../../../shared/input/import-upload.ts';
import { appLayout } from '../../ui/layout.ts';
import type { PostedForm } from '../../ui/posted-form.ts';
import { sendView } from '../../app/respond.ts';
import { sendErrorPage } from '../../app/error-pages.ts';
import { CSRF_FIELD, csrfTokenMatches } from '../../app/csrf.ts';
import { csrfBinding, viewOf, viewerOf, type View } from '../../app/view.ts';
import { webActor } from '../../app/audit-actor.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import { importForm, importReport } from './link-import-view.ts';

/** Without the server's settings (a bare test app): the API's default size, no upload window. */
const DEFAULT_LIMITS = { maxBytes: 50 * 1024 * 1024, spoolMs: 0 };
/** How long a dry run's upload stays importable: the person reads the report, then confirms. */
const KEPT_MS = 3_600_000;
const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

type Limits = typeof DEFAULT_LIMITS;
/**
 * A page built while an import holds its leases and sent once they are given back, as the API's
 * route returns its answer: a client that posts again on it (the confirmation after a dry run)
 * finds them free.
 */
type Page = () => FastifyReply;
interface ImportChoice {
  format: string;
  onConflict: OnConflict;
}

const subjectsOf = (request: FastifyRequest) => {
  const viewer = viewerOf(request);
  return { workspaceId: viewer.workspace.id, personId: viewer.account.id };
};

function renderForm(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  status: number,
  values?: PostedForm,
  errors?: FieldErrors,
) {
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  const choices = { formats: IMPORT_FORMAT_NAMES, maxBytes: (ctx.web.imports ?? DEFAULT_LIMITS).maxBytes };
  return sendView(
    reply,
    status,
    appLayout(view, {
      title: view.t.imports.title,
      section: '/links',
      main: importForm(view, choices, values, errors),
    }),
  );
}

function renderReport(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  report: ImportFileReport,
  kept?: ImportChoice & { token: string },
) {
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  const t = view.t.imports;
  const main = importReport(view, report, kept);
  return sendView(
    reply,
    200,
    appLayout(view, { title: report.dry_run ? t.dryRunTitle : t.reportTitle, section: '/links', main }),
  );
}

/** The form's options as the importer reads them, or a 422's fields naming each bad one. */
function choiceOf(view: View, fields: Record<string, string>): ImportChoice | { errors: FieldErrors } {
  const t = view.t.imports;
  const errors: FieldErrors = {};
  const format = fields.format ?? '';
  const onConflict = (fields.on_conflict || 'skip') as OnConflict;
  if (format !== '' && !IMPORT_FORMAT_NAMES.includes(format))
    errors.format = [t.badFormat(IMPORT_FORMAT_NAMES.join(', '))];
  if (!ON_CONFLICT.includes(onConflict)) errors.on_conflict = [t.badConflict(ON_CONFLICT.join(', '))];
  return Object.keys(errors).length > 0 ? { errors } : { format, onConflict };
}

/** The importer's run over a file on disk, under the ticket's leases (the API's importFile). */
function runImport(
  request: FastifyRequest,
  ctx: WebContext,
  path: string,
  choice: ImportChoice,
  dryRun: boolean,
  ticket: ImportTicket,
) {
  const workspace = viewerOf(request).workspace;
  return importFile(ctx.importer, workspace, path, {
    format: choice.format || undefined,
    onConflict: choice.onConflict,
    actor: { ...webActor(request), via: 'import' },
    dryRun,
    urlSchemes: ctx.urlSchemes,
    lease: ticket,
  });
}

/** An import refused or stopped (busy, a lost lease, a file the importer refuses): the form again, the field named. */
function refusedImport(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  values: PostedForm,
): Page {
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  if (error instanceof ImportBusyError)
    return () => {
      reply.header('retry-after', String(error.retryAfterSeconds));
      return renderForm(request, reply, ctx, 429, values, { file: [view.t.imports.busy] });
    };
  if (error instanceof ImportLeaseLostError)
    return () => renderForm(request, reply, ctx, 503, values, { file: [view.t.imports.lost] });
  if (error instanceof ValidationError) return () => renderForm(request, reply, ctx, 422, values, error.fields);
  throw error;
}

/**
 * A dry run's upload kept in the database for the import that may follow, on whichever instance
 * its confirmation arrives (one per workspace and person); answers its token.
 */
async function keep(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  path: string,
  choice: ImportChoice,
): Promise<string> {
  const token = randomToken(24);
  const now = ctx.clock.now();
  const bytes = await readFile(path);
  // The spool stops at the limit already; the table is bounded by it whatever reaches here.
  const { maxBytes } = ctx.web.imports ?? DEFAULT_LIMITS;
  if (bytes.length > maxBytes)
    throw ValidationError.of(
      'file',
      viewOf(request, reply, ctx.web.csrfSecret).t.imports.tooLarge(`${Math.round(maxBytes / (1024 * 1024))} MB`),
    );
  await ctx.keptImports.keep({ ...subjectsOf(request), ...choice, token, bytes, expiresAt: now + KEPT_MS }, now);
  return token;
}

type Spooled = Awaited<ReturnType<typeof spoolForm>>;

/** What a form that did not arrive whole, or lacks its file, is told on the file field; null when it is whole. */
function unreadFaults(view: View, form: Spooled, limits: Limits): FieldErrors | null {
  const t = view.t.imports;
  if (form === 'tooLarge') return { file: [t.tooLarge(`${Math.round(limits.maxBytes / (1024 * 1024))} MB`)] };
  if (form === 'late') return { file: [t.late(Math.round(limits.spoolMs / 1000))] };
  if (form === 'malformed') return null;
  return form.file === null || form.file === 0 ? { file: [t.fileRequired] } : null;
}

/** The upload spooled, its token checked, its options read; then the dry run (the file kept) or the import. */
async function importUpload(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  dir: string,
  ticket: ImportTicket,
): Promise<Page> {
  const limits = ctx.web.imports ?? DEFAULT_LIMITS;
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  const path = join(dir, 'upload');
  const form = await spoolForm(request, path, limits.spoolMs);
  if (form === 'malformed')
    return () => sendErrorPage(request, reply, 'badRequest', ctx.web.csrfSecret, { status: 400 });
  const fields = typeof form === 'string' ? {} : form.fields;
  request.body = fields;
  const binding = csrfBinding(request, null);
  if (
    typeof form !== 'string' &&
    (binding === null || !csrfTokenMatches(ctx.web.csrfSecret, binding, fields[CSRF_FIELD]))
  )
    return () => sendErrorPage(request, reply, 'forbidden', ctx.web.csrfSecret);
  const unread = unreadFaults(view, form, limits);
  const choice = choiceOf(view, fields);
  if (unread !== null || 'errors' in choice) {
    const errors = { ...unread, ...('errors' in choice ? choice.errors : {}) };
    return () => renderForm(request, reply, ctx, 422, fields, errors);
  }
  const preview = fields.mode !== 'import';
  try {
    await ticket.start();
    const report = await runImport(request, ctx, path, choice, preview, ticket);
    if (!preview) return () => renderReport(request, reply, ctx, report);
    const token = await keep(request, reply, ctx, path, choice);
    return () => renderReport(request, reply, ctx, report, { ...choice, token });
  } catch (error) {
    return refusedImport(error, request, reply, ctx, fields);
  }
}

/** POST /links/import: the leases claimed on arrival and given back before the page is sent (as the API's route does). */
async function postImport(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  if (!request.isMultipart()) {
    const view = viewOf(request, reply, ctx.web.csrfSecret);
    return renderForm(request, reply, ctx, 422, {}, { file: [view.t.imports.fileRequired] });
  }
  let ticket: ImportTicket;
  try {
    ticket = await ctx.importSlots.claim(subjectsOf(request), (ctx.web.imports ?? DEFAULT_LIMITS).spoolMs);
  } catch (error) {
    return refusedImport(error, request, reply, ctx, {})();
  }
  let dir: string | undefined;
  let page: Page;
  try {
    dir = await importTempDir();
    page = await importUpload(request, reply, ctx, dir, ticket);
  } finally {
    await ticket.release();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  }
  return page();
}

/** The kept file the token names, taken (so imported once), written to `dir` and imported under the ticket. */
async function importKept(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  fields: PostedForm & Record<string, string>,
  dir: string,
  ticket: ImportTicket,
): Promise<Page> {
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  try {
    const kept = await ctx.keptImports.take(subjectsOf(request), fields.upload ?? '', ctx.clock.now());
    if (kept === null) return () => renderForm(request, reply, ctx, 422, fields, { file: [view.t.imports.keptGone] });
    const path = join(dir, 'upload');
    await writeFile(path, kept.bytes);
    // The choices the dry run showed, as kept with its file.
    const choice = { format: kept.format, onConflict: kept.onConflict as OnConflict };
    const report = await runImport(request, ctx, path, choice, false, ticket);
    return () => renderReport(request, reply, ctx, report);
  } catch (error) {
    return refusedImport(error, request, reply, ctx, fields);
  }
}

/** POST /links/import/run: the import a dry run showed, of the file it kept (form-encoded, the app's CSRF check). */
async function runKept(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  const fields = Object.fromEntries(
    Object.entries((request.body ?? {}) as Record<string, unknown>).map(([k, v]) => [
      k,
      typeof v === 'string' ? v : '',
    ]),
  );
  const choice = choiceOf(view, fields);
  if ('errors' in choice) return renderForm(request, reply, ctx, 422, fields, choice.errors);
  if (!TOKEN.test(fields.upload ?? ''))
    return renderForm(request, reply, ctx, 422, fields, { file: [view.t.imports.keptGone] });
  let ticket: ImportTicket;
  try {
    // Before the file is taken: refused, the person may confirm again.
    ticket = await ctx.importSlots.acquire(subjectsOf(request));
  } catch (error) {
    return refusedImport(error, request, reply, ctx, fields)();
  }
  let dir: string | undefined;
  let page: Page;
  try {
    dir = await importTempDir();
    page = await importKept(request, reply, ctx, fields, dir, ticket);
  } finally {
    await ticket.release();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  }
  return page();
}

/**
 * GET/POST /links/import and POST /links/import/run: the API's importer from a page
 * (docs/design/imports.md), under the `links.import` action. A dry run keeps its upload in the
 * database for the import that may follow, so neither step needs JavaScript, the file chosen
 * twice, or the same instance.
 */
export const linkImportPages: WebFeature = (web, ctx: WebContext) => {
  const limits = ctx.web.imports ?? DEFAULT_LIMITS;
  web.get('/links/import', (request, reply) => renderForm(request, reply, ctx, 200));
  web.post('/links/import/run', (request, reply) => runKept(request, reply, ctx));
  // The multipart parser in this route's scope only, at the API's limits.
  void web.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: limits.maxBytes, files: 1, fields: 10, parts: 11, fieldNameSize: 100, fieldSize: 1000 },
    });
    // The token is in the multipart body: checked once the route has read it (importUpload).
    scope.post('/links/import', { config: { csrf: 'multipart' } }, (request, reply) => postImport(request, reply, ctx));
  });
};
