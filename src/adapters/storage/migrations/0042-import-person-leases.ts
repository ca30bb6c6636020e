import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * The person whose import is running, in whichever workspace (docs/design/imports.md): beside
 * the workspace's lease of 0021, so that one person cannot hold several imports at once through
 * several workspaces (anyone may make team workspaces). The same rules as 0021's rows.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  await db.schema
    .createTable('import_person_leases')
    .addColumn('person_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('holder', 'varchar(64)', (c) => c.notNull())
    .addColumn('lease_until', bigint, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('import_person_leases').execute();
}
