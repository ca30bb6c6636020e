import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * Click batches whose rows are written but whose rollups (and, on SQLite, counters) still wait
 * in a writer's window, and the leases of the writers that hold them (docs/design/clicks.md). A batch's
 * row goes in with its click rows and out with the window that sums it; a row left behind by a
 * writer whose lease ran out is rolled up from the click rows by whoever claims it.
 * SQLite has one writer at a time, so a batch's rows are one range of ids; on PostgreSQL
 * concurrent writers interleave ids, so the batch keeps its ids as an array.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  await db.schema
    .createTable('click_writers')
    .addColumn('owner', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('lease_until', bigint, (c) => c.notNull())
    .execute();
  const pending =
    engine === 'postgres'
      ? db.schema.createTable('click_batches_pending').addColumn('id', 'bigserial', (c) => c.primaryKey())
      : db.schema
          .createTable('click_batches_pending')
          .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await pending
    .addColumn('owner', 'varchar(64)', (c) => c.notNull())
    .addColumn('first_click_id', bigint, (c) => c.notNull())
    .addColumn('last_click_id', bigint, (c) => c.notNull())
    .execute();
  if (engine === 'postgres') await sql`alter table click_batches_pending add column click_ids bigint[]`.execute(db);
  await db.schema
    .createIndex('click_batches_pending_owner')
    .on('click_batches_pending')
    .columns(['owner', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('click_batches_pending').execute();
  await db.schema.dropTable('click_writers').execute();
}
