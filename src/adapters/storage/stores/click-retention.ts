import type { Kysely } from 'kysely';
import type { ClickRetention } from '../../../core/stats/stats-store.ts';
import type { Database } from '../schema.ts';

// Deleting in slices keeps each statement (and the lock it holds) short on a busy database.
const ROWS_PER_DELETE = 10_000;

/** Deletes raw click rows and visitor marks past their use. The rollups are never touched. */
export class SqlClickRetention implements ClickRetention {
  constructor(private readonly db: Kysely<Database>) {}

  async prune(before: number | null, visitorsBefore: string): Promise<{ clicks: number; visitors: number }> {
    let clicks = 0;
    if (before !== null) {
      for (;;) {
        const result = await this.db.deleteFrom('clicks')
          .where('id', 'in', (eb) => eb.selectFrom('clicks').select('id').where('at', '<', before).limit(ROWS_PER_DELETE))
          .executeTakeFirst();
        const n = Number(result.numDeletedRows);
        clicks += n;
        if (n < ROWS_PER_DELETE) break;
      }
    }
    const visitors = await this.db.deleteFrom('click_visitors').where('day', '<', visitorsBefore).executeTakeFirst();
    return { clicks, visitors: Number(visitors.numDeletedRows) };
  }
}
