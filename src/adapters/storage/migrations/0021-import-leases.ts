import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * The account whose import is running, on any instance (docs/design/imports.md): one row an account while
 * it runs, held by the import that took it until `lease_until`, which the import pushes on as it
 * goes; a row past its time (an instance that died) is anyone's to take, so no account is shut out.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  await db.schema
    .createTable('import_leases')
    .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('holder', 'varchar(64)', (c) => c.notNull())
    .addColumn('lease_until', bigint, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('import_leases').execute();
}
