import { setImmediate as yieldToIo } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';

// Rows moved per transaction: a day of a busy instance's rollups is hundreds of thousands.
const ROWS_PER_MOVE = 20_000;

/**
 * PostgreSQL's daily rollups of the days still getting clicks (click_rollups_recent, migration
 * 0038) move to the settled table once their day is settled: there reads find them without a
 * table page, and the recent table stays a few days small. Once a day per process (a first round
 * after a start finds what an earlier one left); the rows of a day that gets a late click after
 * (a dead writer's recovery) wait in the recent table for the next day's move, and are read from
 * there meanwhile. Instances moving at once pass over each other's rows.
 */
export class RecentRollups {
  /** Days before this have been moved by this process. */
  private movedBefore = '';

  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Moves the rows of the days before `day` (YYYY-MM-DD), a transaction at a time until all are
   * moved or `ms` have passed (the rest go in the next rounds: a stop waits for one transaction
   * at most); answers how many.
   */
  async settleBefore(day: string, ms = Infinity): Promise<number> {
    if (day <= this.movedBefore) return 0;
    const until = performance.now() + ms;
    let moved = 0;
    for (;;) {
      const { rows } = await sql<{ n: string }>`with gone as (
          delete from click_rollups_recent where ctid = any(array(
            select ctid from click_rollups_recent where day < ${day} limit ${ROWS_PER_MOVE} for update skip locked))
          returning link_id, dimension, day, value, count),
        added as (insert into click_rollups_settled (link_id, dimension, day, value, count)
          select link_id, dimension, day, value, sum(count) from gone group by 1, 2, 3, 4 order by 1, 2, 3, 4
          on conflict (link_id, dimension, day, value) do update set count = click_rollups_settled.count + excluded.count)
        select count(*) as n from gone`.execute(this.db);
      const n = Number(rows[0]?.n ?? 0);
      moved += n;
      if (n < ROWS_PER_MOVE) break;
      if (performance.now() >= until) return moved;
      await yieldToIo();
    }
    this.movedBefore = day;
    return moved;
  }
}
