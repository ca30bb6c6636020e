import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/**
 * The dashboard's clicks per day over an account's links (SqlStatsStore.accountPerDay) read
 * the rollups one link at a time through the key (link_id first): 100 000 probes for an account
 * with 100 000 links, most of them never clicked in the range. This index holds only the
 * `total` rows (one a link and day, a 79th of the rollups, so the click writer barely pays for
 * it), by day: the range is one read of the links clicked in it, each joined to its account.
 * `count` is in it, so the sum never reads the table.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') {
    await sql`create index click_rollups_total_day on click_rollups (day, link_id) include (count) where dimension = 'total'`.execute(
      db,
    );
  } else {
    await sql`create index click_rollups_total_day on click_rollups (day, link_id, count) where dimension = 'total'`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('click_rollups_total_day').ifExists().execute();
}
