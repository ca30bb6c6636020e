import type { FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../../../../core/shared/errors.ts';
import { Type, type Static } from '@sinclair/typebox';
import { PER_PAGE } from '../../../../core/shared/page.ts';
import { PageQuery } from '../../../shared/schemas/common.ts';
import { normalizeQuery } from '../../../shared/input/normalize-input.ts';
import type { OperatorLink } from '../../../../core/admin/admin-store.ts';
import type { RawHtml } from '../../../shared/html/html.ts';
import { appLayout } from '../../ui/layout.ts';
import { safeNext, seeOther, sendView } from '../../app/respond.ts';
import { setFlash, viewOf, viewerOf, type View } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import {
  accountsPage,
  deletePage,
  DEFAULT_PER_PAGE,
  linksPage,
  overviewPage,
  refusedPage,
  workspacesPage,
  type ListQuery,
} from './admin-views.ts';
import { revealHidden } from '../../../../core/accounts/email.ts';
import { dataPage } from './data-view.ts';

type Form = Record<string, unknown>;

const ADMIN = { access: 'admin' } as const;
/** Ids beyond a 32-bit integer name nothing (and PostgreSQL would refuse them): 404 like any other. */
const ID_PARAMS = {
  type: 'object',
  properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
  required: ['id'],
} as const;
const BY_ID = { config: ADMIN, schema: { params: ID_PARAMS } };

const text = (form: Form, name: string): string => (typeof form[name] === 'string' ? form[name] : '');

/** A list's query string, under the one reading of numbers: a page or size that is not one is a 422 naming it. */
const LIST_QUERY = Type.Object({
  q: Type.Optional(Type.String()),
  page: PageQuery.page,
  per_page: Type.Integer({ minimum: PER_PAGE.min, maximum: PER_PAGE.max, default: DEFAULT_PER_PAGE }),
});
const LIST = {
  config: ADMIN,
  schema: { querystring: LIST_QUERY },
  // A GET form sends its blank fields too: blank means "not given", as on every list.
  preValidation: async (request: FastifyRequest) => {
    request.query = normalizeQuery(request.query);
  },
};

function listQuery(request: FastifyRequest): ListQuery {
  const query = request.query as Static<typeof LIST_QUERY>;
  return { q: (query.q ?? '').trim().slice(0, 255), page: query.page, perPage: query.per_page };
}

/** Where a list's form returns: the list it was posted from (an admin page), else `fallback`. */
function back(form: Form, fallback: string): string {
  const next = safeNext(form.next, fallback);
  return next.startsWith('/admin') ? next : fallback;
}

const idOf = (request: FastifyRequest) => (request.params as { id: number }).id;

function page(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  status: number,
  title: (view: View) => string,
  main: (view: View) => RawHtml,
) {
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  return sendView(reply, status, appLayout(view, { title: title(view), main: main(view), section: '/admin' }));
}

/** A rule refused the operator's action (their own account): 422 with the reason. */
function refused(request: FastifyRequest, reply: FastifyReply, ctx: WebContext, error: ValidationError) {
  return page(
    request,
    reply,
    ctx,
    422,
    (v) => v.t.admin.accounts.refusedTitle,
    (v) => refusedPage(v, Object.values(error.fields).flat().join(' ')),
  );
}

const textsOf = (request: FastifyRequest, reply: FastifyReply, ctx: WebContext) =>
  viewOf(request, reply, ctx.web.csrfSecret).t.admin;

async function showOverview(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const totals = await ctx.admin.totals(viewerOf(request).account.timezone);
  return page(
    request,
    reply,
    ctx,
    200,
    (v) => v.t.admin.overview.title,
    (v) => overviewPage(v, totals),
  );
}

async function listAccounts(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const query = listQuery(request);
  const found = await ctx.admin.accounts(query.q, { page: query.page, perPage: query.perPage });
  return page(
    request,
    reply,
    ctx,
    200,
    (v) => v.t.admin.accounts.title,
    (v) => accountsPage(v, found, query, request.url),
  );
}

async function suspendAccount(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  try {
    const account = await ctx.admin.suspend(viewerOf(request).account, idOf(request));
    setFlash(reply, textsOf(request, reply, ctx).accounts.suspended(revealHidden(account.email)));
    return seeOther(reply, back(request.body as Form, '/admin/accounts'));
  } catch (error) {
    if (error instanceof ValidationError) return refused(request, reply, ctx, error);
    throw error;
  }
}

async function reinstateAccount(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const account = await ctx.admin.reinstate(idOf(request));
  setFlash(reply, textsOf(request, reply, ctx).accounts.reinstated(revealHidden(account.email)));
  return seeOther(reply, back(request.body as Form, '/admin/accounts'));
}

async function showDeleteAccount(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const summary = await ctx.admin.account(idOf(request));
  return page(
    request,
    reply,
    ctx,
    200,
    (v) => v.t.admin.remove.title,
    (v) => deletePage(v, summary, ''),
  );
}

/** Deletes an account once its email is typed; another refusal (their own account) is the refused page. */
async function deleteAccount(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const form = (request.body ?? {}) as Form;
  const id = idOf(request);
  try {
    const account = await ctx.admin.deleteAccount(viewerOf(request).account, id, text(form, 'email'));
    setFlash(reply, textsOf(request, reply, ctx).accounts.deleted(revealHidden(account.email)));
    return seeOther(reply, '/admin/accounts');
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    if (!('email' in error.fields)) return refused(request, reply, ctx, error);
    const summary = await ctx.admin.account(id);
    return page(
      request,
      reply,
      ctx,
      422,
      (v) => v.t.admin.remove.title,
      (v) => deletePage(v, summary, text(form, 'email'), error.fields),
    );
  }
}

async function listWorkspaces(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const query = listQuery(request);
  const found = await ctx.admin.workspaces(query.q, { page: query.page, perPage: query.perPage });
  return page(
    request,
    reply,
    ctx,
    200,
    (v) => v.t.admin.workspaces.title,
    (v) => workspacesPage(v, found, query, request.url),
  );
}

async function setWorkspaceSuspended(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  suspended: boolean,
) {
  try {
    const workspace = await ctx.admin.setWorkspaceSuspended(idOf(request), suspended);
    const t = textsOf(request, reply, ctx).workspaces;
    setFlash(reply, suspended ? t.suspended(workspace.name) : t.reinstated(workspace.name));
    return seeOther(reply, back(request.body as Form, '/admin/workspaces'));
  } catch (error) {
    if (error instanceof ValidationError) return refused(request, reply, ctx, error);
    throw error;
  }
}

async function listLinks(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const query = listQuery(request);
  const found = await ctx.admin.links(query.q, { page: query.page, perPage: query.perPage });
  const shortUrlOf = (l: OperatorLink) => shortUrl(ctx, l);
  return page(
    request,
    reply,
    ctx,
    200,
    (v) => v.t.admin.links.title,
    (v) => linksPage(v, found, query, request.url, shortUrlOf, Date.now()),
  );
}

async function setLinkDisabled(request: FastifyRequest, reply: FastifyReply, ctx: WebContext, disabled: boolean) {
  const link = await ctx.admin.setLinkDisabled(idOf(request), disabled);
  const t = textsOf(request, reply, ctx).links;
  setFlash(reply, disabled ? t.disabledDone(link.alias) : t.enabledDone(link.alias));
  return seeOther(reply, back(request.body as Form, '/admin/links'));
}

async function showData(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const rows = await ctx.privacy.inventory();
  return page(
    request,
    reply,
    ctx,
    200,
    (v) => v.t.admin.data.title,
    (v) => dataPage(v, rows),
  );
}

/** The operator's pages (accounts, workspaces, links, the data held), for admins only. */
export const adminPages: WebFeature = (web, ctx: WebContext) => {
  web.get('/admin', { config: ADMIN }, (request, reply) => showOverview(request, reply, ctx));
  web.get('/admin/accounts', LIST, (request, reply) => listAccounts(request, reply, ctx));
  web.post('/admin/accounts/:id/suspend', BY_ID, (request, reply) => suspendAccount(request, reply, ctx));
  web.post('/admin/accounts/:id/reinstate', BY_ID, (request, reply) => reinstateAccount(request, reply, ctx));
  web.get('/admin/accounts/:id/delete', BY_ID, (request, reply) => showDeleteAccount(request, reply, ctx));
  web.post('/admin/accounts/:id/delete', BY_ID, (request, reply) => deleteAccount(request, reply, ctx));
  web.get('/admin/workspaces', LIST, (request, reply) => listWorkspaces(request, reply, ctx));
  web.post('/admin/workspaces/:id/suspend', BY_ID, (request, reply) =>
    setWorkspaceSuspended(request, reply, ctx, true),
  );
  web.post('/admin/workspaces/:id/reinstate', BY_ID, (request, reply) =>
    setWorkspaceSuspended(request, reply, ctx, false),
  );
  web.get('/admin/links', LIST, (request, reply) => listLinks(request, reply, ctx));
  web.post('/admin/links/:id/disable', BY_ID, (request, reply) => setLinkDisabled(request, reply, ctx, true));
  web.post('/admin/links/:id/enable', BY_ID, (request, reply) => setLinkDisabled(request, reply, ctx, false));
  web.get('/admin/data', { config: ADMIN }, (request, reply) => showData(request, reply, ctx));
};

function shortUrl(ctx: WebContext, { link, domainName }: OperatorLink): string {
  const base = domainName ? `${ctx.urls.domainScheme}://${domainName}` : ctx.urls.appUrl;
  return `${base}/${link.alias}`;
}
