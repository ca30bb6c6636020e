import type { Kysely } from 'kysely';
import type { ClickPosition, RawClick, RawClickStore } from '../../../core/stats/click-export.ts';
import type { Storage } from '../connect.ts';
import type { Database } from '../schema.ts';

/**
 * Click rows of one link for its export. PostgreSQL reads them through (link_id, at); SQLite has
 * no index by link (docs/design/clicks.md) and walks `clicks_at` over the range, skipping other links'
 * rows: an export costs a scan of the range's clicks, never a write's speed. A chunk of rows may
 * thus go through any number of others: it is read through `storage.reads` (docs/design/event-loop.md).
 */
export class SqlRawClickStore implements RawClickStore {
  private readonly db: Kysely<Database>;

  constructor(storage: Pick<Storage, 'reads'>) {
    this.db = storage.reads;
  }

  async clicksAfter(
    linkId: number,
    from: number,
    to: number,
    after: ClickPosition | null,
    limit: number,
  ): Promise<RawClick[]> {
    let q = this.db
      .selectFrom('clicks')
      .select(['id', 'at', 'country', 'city', 'browser', 'platform', 'device', 'language', 'referrer_host', 'is_bot'])
      .where('link_id', '=', linkId)
      .where('at', '>=', from)
      .where('at', '<', to);
    if (after)
      q = q.where((eb) => eb.or([eb('at', '>', after.at), eb.and([eb('at', '=', after.at), eb('id', '>', after.id)])]));
    const rows = await q.orderBy('at').orderBy('id').limit(limit).execute();
    return rows.map((r) => ({
      id: Number(r.id),
      at: Number(r.at),
      country: r.country,
      city: r.city,
      browser: r.browser,
      platform: r.platform,
      device: r.device,
      language: r.language,
      referrerHost: r.referrer_host,
      isBot: Number(r.is_bot) === 1,
    }));
  }
}
