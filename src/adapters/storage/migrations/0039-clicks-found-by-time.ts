import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/**
 * PostgreSQL: no B-tree on the click rows' ids. Only the recovery of a dead writer's batches
 * looked rows up by id; a write's record now also keeps the time span of its rows, and a BRIN
 * index on `at` (a few pages a month: rows come in time order, and a page range not yet
 * summarised costs an insert nothing) finds the pages of that span, where the ids are matched.
 * The retention's delete within a month finds its rows the same way (docs/design/clicks.md).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`alter table click_batches_pending add column first_at bigint, add column last_at bigint`.execute(db);
  await sql`create index clicks_at_range on clicks using brin (at)`.execute(db);
  await sql`drop index clicks_id`.execute(db);
}

export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`create index clicks_id on clicks (id)`.execute(db);
  await sql`drop index clicks_at_range`.execute(db);
  await sql`alter table click_batches_pending drop column first_at, drop column last_at`.execute(db);
}
