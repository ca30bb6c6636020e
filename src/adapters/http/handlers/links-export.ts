import type { FastifyReply, FastifyRequest } from 'fastify';
import { linksCsv, linksJson } from '../../shared/csv/link-export.ts';
import type { LinkExportQuery } from '../schemas/link-bulk.ts';
import { startedStream } from '../../shared/request/stream-answer.ts';
import type { ApiContext } from './context.ts';
import { filterOf } from './links-bulk.ts';

/** GET /api/v1/links/export (api.md §13): every matching link, streamed a chunk at a time in id order. */
export function linkExportHandler(ctx: ApiContext) {
  return async (request: FastifyRequest<{ Querystring: LinkExportQuery }>, reply: FastifyReply) => {
    const q = request.query;
    const chunks = ctx.links.exportChunks(request.account.id, { filter: filterOf(q) });
    const csv = q.format === 'csv';
    const body = await startedStream(csv ? linksCsv(chunks, ctx.urls) : linksJson(chunks, ctx.urls));
    return reply
      .type(csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="links.${q.format}"`)
      .header('cache-control', 'no-store')
      .send(body);
  };
}
