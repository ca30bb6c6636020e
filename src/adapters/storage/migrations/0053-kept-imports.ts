import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * The file a web dry run keeps for the import that may follow (docs/design/imports.md): in the
 * database, so the confirmation finds it whichever instance it reaches. One row per workspace
 * and person (a new dry run replaces the last), gone with either, after its import, or an hour on.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  await db.schema
    .createTable('kept_imports')
    .addColumn('workspace_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('format', 'varchar(32)', (c) => c.notNull())
    .addColumn('on_conflict', 'varchar(16)', (c) => c.notNull())
    .addColumn('bytes', engine === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('expires_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('kept_imports_key', ['workspace_id', 'user_id'])
    .execute();
  // The expiry job's sweep.
  await db.schema.createIndex('kept_imports_expires_at').on('kept_imports').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('kept_imports').execute();
}
