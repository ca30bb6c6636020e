import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * Scheduled changes of links (docs/design/history.md), deleted with their link. `status` leaves
 * `pending` once, by a conditional update in the unit of the change it applies: two instances
 * never both apply one. The due round reads the pending ones by `at` (a partial index: the
 * settled rows, most of them, stay out of it); a link's list, by link.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { id, bigint } = columnTypes(engine);
  await db.schema
    .createTable('link_schedules')
    .addColumn('id', id, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('link_id', 'integer', (c) => c.notNull().references('links.id').onDelete('cascade'))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('at', bigint, (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('user_id', 'integer')
    .addColumn('key_id', 'integer')
    .addColumn('time_zone', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('done_at', bigint)
    .execute();
  await db.schema.createIndex('link_schedules_link').on('link_schedules').columns(['link_id', 'at', 'id']).execute();
  await sql`create index link_schedules_due on link_schedules (at, id) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('link_schedules').execute();
}
