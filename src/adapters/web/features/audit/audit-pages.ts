import type { FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError, type FieldErrors } from '../../../../core/shared/errors.ts';
import { PAGE_MAX, PER_PAGE } from '../../../../core/shared/page.ts';
import type { Actor } from '../../../../core/workspaces/workspace.ts';
import { IdParams } from '../../../shared/schemas/common.ts';
import { auditCsv } from '../../../shared/presenters/audit-record.ts';
import { startedStream } from '../../../shared/request/stream-answer.ts';
import { appLayout } from '../../ui/layout.ts';
import { sendView } from '../../app/respond.ts';
import { viewOf, viewerOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import { auditPage, type AuditPageQuery } from './audit-view.ts';

const ROUTE = { schema: { params: IdParams, hide: true } };
const PER_PAGE_SHOWN = 25;
const NAMES = ['actor', 'action', 'target_type', 'target_id', 'from', 'to', 'page'] as const;

/** The session's person, acting in any workspace they are a member of, as a key without scopes would. */
function sessionActor(request: FastifyRequest): Actor {
  const id = viewerOf(request).account.id;
  return { userId: id, keyId: null, scopes: null, home: { workspaceId: id, role: 'owner' } };
}

/** Only single text values are read: a repeated or odd parameter is as if absent. */
function queryOf(request: FastifyRequest): AuditPageQuery {
  const raw = (request.query ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    NAMES.map((name) => [name, typeof raw[name] === 'string' ? raw[name].slice(0, 100) : undefined]),
  ) as AuditPageQuery;
}

function pageOf(raw: string | undefined): number {
  const n = raw !== undefined && /^\d{1,7}$/.test(raw) ? Number(raw) : 1;
  return Math.min(Math.max(n, 1), PAGE_MAX);
}

/**
 * /account/workspaces/{id}/audit (docs/design/teams.md): the workspace's audit log for its admins and
 * owners, filtered by a GET form, paged, and as CSV (…/audit.csv with the same filters). The
 * workspaces service decides who may read it: others get its 403, non-members its 404.
 */
export const auditPages: WebFeature = (web, ctx: WebContext) => {
  const secret = ctx.web.csrfSecret;
  const show = async (request: FastifyRequest, reply: FastifyReply) => {
    const { id } = request.params as IdParams;
    const query = queryOf(request);
    const path = `/account/workspaces/${id}/audit`;
    const view = viewOf(request, reply, secret);
    // Whoever may read the log may read who is in the workspace; anyone else is refused here as there.
    const members = await ctx.members.list(sessionActor(request), id);
    const render = (status: number, page: Parameters<typeof auditPage>[1]['page'], errors?: FieldErrors) =>
      sendView(
        reply,
        status,
        appLayout(view, {
          title: view.t.audit.title,
          main: auditPage(view, { path, query, page, errors, members }),
          section: '/account',
        }),
      );
    try {
      const { page: pageNumber, ...filters } = query;
      const page = await ctx.audit.list(sessionActor(request), id, filters, {
        page: pageOf(pageNumber),
        perPage: Math.max(PER_PAGE.min, PER_PAGE_SHOWN),
      });
      return render(200, page);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return render(422, null, error.fields);
    }
  };

  web.get('/account/workspaces/:id/audit', ROUTE, show);

  web.get('/account/workspaces/:id/audit.csv', ROUTE, async (request, reply) => {
    const { id } = request.params as IdParams;
    const { page: _page, ...filters } = queryOf(request);
    const chunks = await ctx.audit.entries(sessionActor(request), id, filters);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-${id}.csv"`)
      .header('cache-control', 'no-store')
      .send(await startedStream(auditCsv(chunks)));
  });
};
