import type { FastifyReply, FastifyRequest } from 'fastify';
import { clicksCsv } from '../presenters/click-export.ts';
import type { IdParams } from '../../shared/schemas/common.ts';
import type { ClicksExportQuery } from '../schemas/stats.ts';
import { startedStream } from '../../shared/request/stream-answer.ts';
import type { ApiContext } from './context.ts';

/** GET /api/v1/stats/{id}/export (api.md §8): the link's click rows of the range, streamed as CSV. */
export function clicksExportHandler(ctx: ApiContext) {
  return async (request: FastifyRequest<{ Params: IdParams; Querystring: ClicksExportQuery }>, reply: FastifyReply) => {
    const { id } = request.params;
    const { range, chunks } = await ctx.clickExport.prepare(request.account, id, request.query);
    const body = await startedStream(clicksCsv(chunks));
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="link-${id}-clicks-${range.from}-${range.to}.csv"`)
      .header('cache-control', 'no-store')
      .send(body);
  };
}
