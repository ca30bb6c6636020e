import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { BulkTarget } from '../../../../core/links/link-bulk.ts';
import { linkStateOf } from '../../../../core/links/link-state.ts';
import type { LinksService } from '../../../../core/links/links-service.ts';
import { csvChunks } from '../../../shared/csv/csv.ts';
import { shortUrl, type ShortUrlOptions } from '../../../shared/presenters/link-record.ts';

const EXPORT_COLUMNS = ['id', 'short_url', 'url', 'title', 'alias', 'space', 'clicks', 'status', 'created_at'] as const;

/** The CSV, a chunk of links at a time (an export of every matching link may be large). */
function csvLines(
  links: LinksService,
  accountId: number,
  target: BulkTarget,
  urls: ShortUrlOptions,
): AsyncGenerator<string> {
  const now = Date.now();
  return csvChunks(EXPORT_COLUMNS, links.exportChunks(accountId, target), (view) => {
    const { link } = view;
    return [
      link.id,
      shortUrl(view, urls),
      link.url,
      link.title,
      link.alias,
      view.space?.name ?? null,
      link.clicks,
      linkStateOf(link, now),
      new Date(link.createdAt).toISOString(),
    ];
  });
}

export function sendLinksCsv(
  reply: FastifyReply,
  links: LinksService,
  accountId: number,
  target: BulkTarget,
  urls: ShortUrlOptions,
): FastifyReply {
  return reply
    .code(200)
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', 'attachment; filename="links.csv"')
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(Readable.from(csvLines(links, accountId, target, urls)));
}
