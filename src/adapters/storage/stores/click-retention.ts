import type { Kysely } from 'kysely';
import type { ClickRetention } from '../../../core/stats/stats-store.ts';
import type { Engine } from '../connect.ts';
import type { Database } from '../schema.ts';

// Deleting in slices keeps each statement (and the lock it holds) short on a busy database.
const ROWS_PER_DELETE = 10_000;
// The sweep reads click rows by id range: this many ids a statement.
const IDS_PER_SWEEP = 20_000;
// Deleted link ids forgotten a statement at a time (SQLite's limit on parameters is far above).
const LINKS_PER_FORGET = 500;

/**
 * Deletes raw click rows and visitor marks past their use, and on SQLite the rows of deleted
 * links (migration 0004: no index by link there, so no cascade). The rollups are never touched.
 */
export class SqlClickRetention implements ClickRetention {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
  ) {}

  async prune(before: number | null, visitorsBefore: string): Promise<{ clicks: number; visitors: number }> {
    let clicks = 0;
    if (before !== null) {
      for (;;) {
        const result = await this.db
          .deleteFrom('clicks')
          .where('id', 'in', (eb) => eb.selectFrom('clicks').select('id').where('at', '<', before).limit(ROWS_PER_DELETE))
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
