import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * Destination health (docs/design/health.md): one row a link once it is first taken for a check,
 * none before (its health is unknown). `url` is the destination that was checked: a link whose
 * url has changed since reads unknown. `next_check_at` orders the rounds; the lease keeps a
 * claimed link to one instance until its result is recorded or the lease runs out.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  await db.schema
    .createTable('link_health')
    .addColumn('link_id', 'integer', (c) => c.primaryKey().references('links.id').onDelete('cascade'))
    .addColumn('url', 'text')
    .addColumn('status', 'varchar(8)', (c) => c.notNull())
    .addColumn('code', 'integer')
    .addColumn('reason', 'varchar(16)')
    .addColumn('checked_at', bigint)
    .addColumn('broken_since', bigint)
    .addColumn('next_check_at', bigint, (c) => c.notNull())
    .addColumn('lease_holder', 'varchar(64)')
    .addColumn('lease_until', bigint)
    .execute();
  await sql`create index link_health_due on link_health (next_check_at)`.execute(db);
  await sql`create index link_health_broken on link_health (link_id) where status = 'broken'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('link_health').execute();
}
