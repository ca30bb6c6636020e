import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * The audit log (docs/design/teams.md): one row per change to one record, written in the change's
 * transaction. The actor and key are plain ids, not foreign keys: an entry outlives the person
 * or key it names; it goes with its workspace. Each filter has an index ending in id (the order).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { id, bigint } = columnTypes(engine);
  await db.schema
    .createTable('audit_entries')
    .addColumn('id', id, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('workspace_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('at', bigint, (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('key_id', 'integer')
    .addColumn('via', 'varchar(8)', (c) => c.notNull())
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_entries_workspace').on('audit_entries').columns(['workspace_id', 'id']).execute();
  await db.schema
    .createIndex('audit_entries_actor')
    .on('audit_entries')
    .columns(['workspace_id', 'user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('audit_entries_action')
    .on('audit_entries')
    .columns(['workspace_id', 'action', 'id'])
    .execute();
  await db.schema
    .createIndex('audit_entries_target')
    .on('audit_entries')
    .columns(['workspace_id', 'target_type', 'target_id', 'id'])
    .execute();
  await db.schema.createIndex('audit_entries_at').on('audit_entries').columns(['workspace_id', 'at', 'id']).execute();
  // Retention deletes by age across workspaces.
  await db.schema.createIndex('audit_entries_age').on('audit_entries').column('at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_entries').execute();
}
