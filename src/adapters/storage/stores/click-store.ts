import { sql, type Kysely, type Transaction } from 'kysely';
import type { ClickBatch, ClickStore } from '../../../core/clicks/ports.ts';
import type { Database } from '../schema.ts';
import { writeRollups } from './rollup-writes.ts';

// SQLite allows 32 766 bound values per statement; 11 columns a row leaves room for 500 rows.
const ROWS_PER_INSERT = 500;

/** Rows, counters, rotation positions and statistics rollups of a batch in one transaction: counts always match rows. */
export class SqlClickStore implements ClickStore {
  constructor(private readonly db: Kysely<Database>) {}

  async writeBatch(batch: ClickBatch): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const alive = new Set<number>();
      for (let i = 0; i < batch.clicks.length; i += ROWS_PER_INSERT) {
        const rows = batch.clicks.slice(i, i + ROWS_PER_INSERT).map((c) => ({
          link_id: c.linkId, account_id: c.accountId, at: c.at, country: c.country, city: c.city,
          browser: c.browser, platform: c.platform, device: c.device, language: c.language,
          referrer_host: c.referrerHost, is_bot: c.isBot ? 1 : 0,
        }));
        // A link deleted while its clicks were buffered has no row to point at any more.
        const live = await trx.selectFrom('links').select('id')
          .where('id', 'in', [...new Set(rows.map((r) => r.link_id))]).execute();
        const ids = new Set(live.map((r) => r.id));
        for (const id of ids) alive.add(id);
        const kept = rows.filter((r) => ids.has(r.link_id));
        if (kept.length > 0) await trx.insertInto('clicks').values(kept).execute();
      }
      // In id order: two instances writing at once lock the same rows in the same order.
      await addToLinks(trx, 'clicks', [...batch.counts].sort(([a], [b]) => a - b), 'add');
      await addToLinks(trx, 'last_rotation', [...batch.rotations].sort(([a], [b]) => a - b), 'set');
      await writeRollups(trx, batch.clicks.filter((c) => alive.has(c.linkId)));
    });
  }
}

const PAIRS_PER_UPDATE = 500;

/**
 * One WITH v AS (VALUES …) UPDATE per 500 links instead of one statement per link: the same SQL on
 * SQLite (3.33+) and PostgreSQL. The casts give PostgreSQL the parameters' types.
 */
async function addToLinks(
  trx: Transaction<Database>, column: 'clicks' | 'last_rotation', pairs: Array<[number, number]>, mode: 'add' | 'set',
): Promise<void> {
  for (let i = 0; i < pairs.length; i += PAIRS_PER_UPDATE) {
    const values = sql.join(pairs.slice(i, i + PAIRS_PER_UPDATE)
      .map(([id, n]) => sql`(cast(${id} as integer), cast(${n} as bigint))`));
    const target = sql.ref(column);
    const n = sql`(select v.n from v where v.id = links.id)`;
    const value = mode === 'add' ? sql`${sql.ref(`links.${column}`)} + ${n}` : n;
    // "where id in (…)" makes both engines walk v and look each link up by its key; a join
    // in UPDATE … FROM let SQLite scan the whole links table instead.
    await sql`with v(id, n) as (values ${values})
      update links set ${target} = ${value} where id in (select id from v)`.execute(trx);
  }
}
