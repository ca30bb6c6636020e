import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/**
 * PostgreSQL: `link_click_counts` keeps more than half of each page free, so that a window's
 * update of every row it holds finds room for the new version on the row's own page (a HOT
 * update, no index entry). At 70 only about 44 % of a window's updates were HOT: a page had room
 * for a third of its rows' new versions, and the old ones cannot be pruned before the window
 * commits (docs/design/clicks.md). Pages made from now on follow it; the settle deletes the
 * rows every CLICK_COUNT_SETTLE_INTERVAL_MS and the windows insert them again, so the table takes
 * the new layout within minutes without a rewrite. SQLite: nothing (no fillfactor).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`alter table link_click_counts set (fillfactor = 45)`.execute(db);
}

export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`alter table link_click_counts set (fillfactor = 70)`.execute(db);
}
