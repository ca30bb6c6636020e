import type { Kysely } from 'kysely';
import type { OwnedRedirectLinks } from '../../../core/rules/explain-service.ts';
import type { Engine } from '../connect.ts';
import type { Database } from '../schema.ts';
import { selectRedirectLinks, toRedirectLink } from './redirect-link-rows.ts';

/**
 * An account's link read exactly as the redirect reads it (the same statement and row mapping),
 * so that explain decides on what a visit would; pending domains included, as the owner asks.
 */
export class SqlOwnedRedirectLinks implements OwnedRedirectLinks {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
  ) {}

  async owned(accountId: number, linkId: number) {
    const row = await selectRedirectLinks(this.db, this.engine)
      .where('links.id', '=', linkId)
      .where('links.account_id', '=', accountId)
      .executeTakeFirst();
    if (row === undefined) return null;
    const pixels = await this.db
      .selectFrom('link_pixels')
      .select('pixel_id')
      .where('link_id', '=', linkId)
      .orderBy('pixel_id')
      .execute();
    return { link: toRedirectLink(row), pixelIds: pixels.map((p) => p.pixel_id) };
  }
}
