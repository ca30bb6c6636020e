import { sql, type Kysely } from 'kysely';
import type { ClickRetention } from '../../../core/stats/stats-store.ts';
import type { Engine } from '../connect.ts';
import type { Database } from '../schema.ts';
import { monthPartitions } from './click-partitions.ts';

// Deleting in slices keeps each statement (and the lock it holds) short on a busy database.
const ROWS_PER_DELETE = 10_000;
// The sweep reads click rows by id range: this many ids a statement.
const IDS_PER_SWEEP = 20_000;
// Deleted link ids forgotten a statement at a time (SQLite's limit on parameters is far above).
const LINKS_PER_FORGET = 500;

// Dropping a month's partition locks `clicks` for an instant, after the reads and writes under
// way: it waits this long at most (the writer waits behind it meanwhile) and is tried next round.
const DROP_LOCK_WAIT = '1s';
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Deletes raw click rows and visitor marks past their use, and on SQLite the rows of deleted
 * links (migration 0004: no index by link there, so no cascade). The rollups are never touched.
 * PostgreSQL drops the months wholly past the limit and deletes within the month it falls in
 * (docs/design/clicks.md).
 */
export class SqlClickRetention implements ClickRetention {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
  ) {}

  async prune(before: number | null, visitorsBefore: string): Promise<{ clicks: number; visitors: number }> {
    let clicks = 0;
    if (before !== null && this.engine === 'postgres') clicks += await this.pruneMonths(before);
    else if (before !== null) {
      for (;;) {
        const result = await this.db
          .deleteFrom('clicks')
          .where('id', 'in', (eb) =>
            eb.selectFrom('clicks').select('id').where('at', '<', before).limit(ROWS_PER_DELETE),
          )
          .executeTakeFirst();
        const n = Number(result.numDeletedRows);
        clicks += n;
        if (n < ROWS_PER_DELETE) break;
      }
    }
    if (this.engine === 'sqlite') clicks += await this.sweepDeletedLinks();
    const visitors = await this.db.deleteFrom('click_visitors').where('day', '<', visitorsBefore).executeTakeFirst();
    return { clicks, visitors: Number(visitors.numDeletedRows) };
  }

  /** PostgreSQL: each month partition wholly before `before` dropped, then the rows before it deleted (its month's, and any in the default partition). */
  private async pruneMonths(before: number): Promise<number> {
    let clicks = 0;
    for (const p of await monthPartitions(this.db)) {
      if (p.to > before) break;
      clicks += await this.db
        .transaction()
        .execute(async (trx) => {
          await sql`set local lock_timeout = ${sql.lit(DROP_LOCK_WAIT)}`.execute(trx);
          const { rows } = await sql<{ n: number }>`select count(*)::int8 as n from ${sql.id(p.name)}`.execute(trx);
          await sql`drop table ${sql.id(p.name)}`.execute(trx);
          return Number(rows[0]!.n);
        })
        .catch((error: unknown) => {
          if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE) return 0;
          throw error;
        });
    }
    const deleted = await this.db.deleteFrom('clicks').where('at', '<', before).executeTakeFirst();
    return clicks + Number(deleted.numDeletedRows);
  }

  /**
   * One pass over the click rows, a slice of ids at a time, deleting those of links in
   * deleted_links; then those links are forgotten. A link deleted during the pass stays listed
   * for the next one. No row of a listed link is written after the pass starts: the writer
   * checks that a link exists in the transaction that writes its rows.
   */
  private async sweepDeletedLinks(): Promise<number> {
    const listed = (await this.db.selectFrom('deleted_links').select('link_id').execute()).map((r) => r.link_id);
    if (listed.length === 0) return 0;
    const bounds = await this.db
      .selectFrom('clicks')
      .select((eb) => [eb.fn.min<number | null>('id').as('first'), eb.fn.max<number | null>('id').as('last')])
      .executeTakeFirstOrThrow();
    let swept = 0;
    if (bounds.first !== null && bounds.last !== null) {
      for (let from = bounds.first; from <= bounds.last; from += IDS_PER_SWEEP) {
        const result = await this.db
          .deleteFrom('clicks')
          .where('id', '>=', from)
          .where('id', '<', from + IDS_PER_SWEEP)
          .where('link_id', 'in', (eb) => eb.selectFrom('deleted_links').select('link_id'))
          .executeTakeFirst();
        swept += Number(result.numDeletedRows);
        // SQLite runs on this thread: let requests in between slices.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    for (let i = 0; i < listed.length; i += LINKS_PER_FORGET) {
      await this.db
        .deleteFrom('deleted_links')
        .where('link_id', 'in', listed.slice(i, i + LINKS_PER_FORGET))
        .execute();
    }
    return swept;
  }
}
