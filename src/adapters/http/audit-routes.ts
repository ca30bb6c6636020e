import type {} from '@fastify/swagger'; // adds tags, summary and security to route schemas
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { ListEnvelope, errorResponses } from '../shared/schemas/common.ts';
import { AuditQuery, AuditRecord } from './schemas/audit.ts';
import { WorkspaceParams } from './schemas/workspace.ts';
import { list } from './envelopes.ts';
import { auditCsv, auditRecord } from '../shared/presenters/audit-record.ts';
import { startedStream } from '../shared/request/stream-answer.ts';
import { pathOf, rawQueryOf, type ApiContext } from './handlers/context.ts';

type Handler = RouteOptions['handler'];

/**
 * GET /api/v1/workspaces/{id}/audit (admins and owners; docs/design/teams.md): a page of entries, or with format=csv
 * all that match.
 */
export function auditRoutes(ctx: ApiContext): RouteOptions[] {
  return [
    {
      method: 'GET',
      url: '/api/v1/workspaces/:id/audit',
      schema: {
        tags: ['Workspaces'],
        security: [{ bearerAuth: [] }],
        summary: "A workspace's audit log, newest first (admins and owners)",
        params: WorkspaceParams,
        querystring: AuditQuery,
        response: { 200: ListEnvelope(AuditRecord), ...errorResponses },
      },
      handler: (async (
        request: FastifyRequest<{ Params: WorkspaceParams; Querystring: AuditQuery }>,
        reply: FastifyReply,
      ) => {
        const { page, per_page, format, ...filters } = request.query;
        const id = request.params.id;
        if (format === 'csv') {
          const chunks = await ctx.audit.entries(request.actor, id, filters);
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="audit-${id}.csv"`)
            .header('cache-control', 'no-store')
            .send(await startedStream(auditCsv(chunks)));
        }
        const found = await ctx.audit.list(request.actor, id, filters, { page, perPage: per_page });
        return list(found, auditRecord, ctx.urls.appUrl, pathOf(request), rawQueryOf(request));
      }) as Handler,
    },
  ];
}
