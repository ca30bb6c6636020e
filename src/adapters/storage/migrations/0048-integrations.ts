import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * A workspace's integrations (docs/design/integrations.md): the sender's signing secret and the
 * endpoint's token are sealed (secrets/secret-box.ts); the token is found by its digest, so a
 * receiver never opens every row. The events an integration has taken, by the sender's id: the
 * primary key makes a second delivery of one event record nothing, even when both arrive at once.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { id, bigint } = columnTypes(engine);
  await db.schema
    .createTable('integrations')
    .addColumn('id', id, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('token_digest', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('token_box', 'text', (c) => c.notNull())
    .addColumn('secret_box', 'text', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('integrations_account').on('integrations').columns(['account_id', 'id']).execute();
  await db.schema
    .createTable('integration_events')
    .addColumn('integration_id', 'integer', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('event_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('integration_events_pk', ['integration_id', 'event_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('integration_events').execute();
  await db.schema.dropTable('integrations').execute();
}
