import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdParams } from '../../shared/schemas/common.ts';
import type { StatsQuery } from '../schemas/stats.ts';
import { list } from '../envelopes.ts';
import { statsCsv, statsCsvFilename, statsEntry, statsSummary } from '../../shared/presenters/stats.ts';
import { pathOf, rawQueryOf, type ApiContext } from './context.ts';

/** GET /api/v1/stats/{id} (api.md §8): the list envelope plus the range's numbers, or a CSV. */
export function statsHandler(
  ctx: ApiContext,
  conversions: (request: FastifyRequest<{ Params: IdParams }>) => Promise<unknown>,
) {
  return async (request: FastifyRequest<{ Params: IdParams; Querystring: StatsQuery }>, reply: FastifyReply) => {
    const q = request.query;
    // Results per rule and variant: one table of their own, not a range's list (docs/api.md, Conversions).
    if (q.name === 'conversions') return conversions(request);
    const csv = q.format === 'csv';
    const result = await ctx.stats.query(
      request.account,
      request.params.id,
      {
        name: q.name,
        from: q.from,
        to: q.to,
        search: q.search,
        sort: q.sort,
        page: csv ? null : { page: q.page, perPage: q.per_page },
      },
      'owner',
    );
    if (csv) {
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${statsCsvFilename(request.params.id, result)}"`)
        .send(statsCsv(result));
    }
    const envelope = list(result, statsEntry, ctx.urls.appUrl, pathOf(request), rawQueryOf(request));
    return {
      data: envelope.data,
      links: envelope.links,
      meta: envelope.meta,
      stats: statsSummary(result),
      status: envelope.status,
    };
  };
}
