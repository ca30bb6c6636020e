import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/** Click rows (never an address) and the app's generated secrets. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  const withId =
    engine === 'postgres'
      ? db.schema.createTable('clicks').addColumn('id', 'bigserial', (c) => c.primaryKey())
      : db.schema.createTable('clicks').addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await withId
    .addColumn('link_id', 'integer', (c) => c.notNull().references('links.id').onDelete('cascade'))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('at', bigint, (c) => c.notNull())
    .addColumn('country', 'varchar(2)')
    .addColumn('city', 'varchar(128)')
    .addColumn('browser', 'varchar(64)')
    .addColumn('platform', 'varchar(32)')
    .addColumn('device', 'varchar(32)')
    .addColumn('language', 'varchar(16)')
    .addColumn('referrer_host', 'varchar(255)')
    .addColumn('is_bot', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('clicks_link_at').on('clicks').columns(['link_id', 'at']).execute();

  await db.schema
    .createTable('app_secrets')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'varchar(255)', (c) => c.notNull())
    .execute();
}

/** @public Kysely's Migrator calls it, through the module object in index.ts, to migrate down. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('app_secrets').ifExists().execute();
  await db.schema.dropTable('clicks').ifExists().execute();
}
