import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { BulkTarget } from '../../../../core/links/link-bulk.ts';
import type { LinksService } from '../../../../core/links/links-service.ts';
import { linksCsv } from '../../../shared/csv/link-export.ts';
import type { ShortUrlOptions } from '../../../shared/presenters/link-record.ts';

/**
 * The list's *Export CSV*: the API's export (docs/api.md §13), its columns and presenter, a chunk
 * of links at a time (an export of every matching link may be large). The file imports back.
 */
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
    .send(Readable.from(linksCsv(links.exportChunks(accountId, target), urls)));
}
