import type {} from '@fastify/swagger'; // adds tags, summary and security to route schemas
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { errorResponses } from '../shared/schemas/common.ts';
import { WorkspaceParams } from './schemas/workspace.ts';
import { WorkspaceStatsEnvelope, WorkspaceStatsQuery } from './schemas/workspace-stats.ts';
import { list } from './envelopes.ts';
import {
  workspaceStatsCsv,
  workspaceStatsCsvFilename,
  workspaceStatsEntry,
  workspaceStatsSummary,
} from '../shared/presenters/workspace-stats.ts';
import { pathOf, rawQueryOf, type ApiContext } from './handlers/context.ts';

type Handler = RouteOptions['handler'];

/** GET /api/v1/workspaces/{id}/stats (stats.read in that workspace; docs/api.md, Workspace statistics). */
export function workspaceStatsRoutes(ctx: ApiContext): RouteOptions[] {
  return [
    {
      method: 'GET',
      url: '/api/v1/workspaces/:id/stats',
      schema: {
        tags: ['Statistics'],
        security: [{ bearerAuth: [] }],
        summary: "A workspace's clicks per day, link, tag, space, UTM value, destination host or QR scan",
        params: WorkspaceParams,
        querystring: WorkspaceStatsQuery,
        produces: ['application/json', 'text/csv'],
        response: {
          200: {
            description:
              "The list envelope of {value, count} and the range's numbers; with format=csv, a CSV attachment",
            content: {
              'application/json': { schema: WorkspaceStatsEnvelope },
              'text/csv': { schema: { type: 'string' } },
            },
          },
          ...errorResponses,
        },
      },
      handler: (async (
        request: FastifyRequest<{ Params: WorkspaceParams; Querystring: WorkspaceStatsQuery }>,
        reply: FastifyReply,
      ) => {
        const q = request.query;
        const id = request.params.id;
        const csv = q.format === 'csv';
        const result = await ctx.workspaceStats.query(request.actor, id, {
          name: q.name,
          from: q.from,
          to: q.to,
          search: q.search,
          sort: q.sort,
          page: csv ? null : { page: q.page, perPage: q.per_page },
        });
        if (csv)
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${workspaceStatsCsvFilename(id, result)}"`)
            .send(workspaceStatsCsv(result));
        const envelope = list(result, workspaceStatsEntry, ctx.urls.appUrl, pathOf(request), rawQueryOf(request));
        return { ...envelope, stats: workspaceStatsSummary(result) };
      }) as Handler,
    },
  ];
}
