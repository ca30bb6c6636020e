import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * An account's UTM templates: a name, unique per account ignoring case (`name_key`, lower-cased,
 * as spaces have it), and the five parameters, '' for one the template leaves out.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { id, bigint } = columnTypes(engine);
  let table = db.schema
    .createTable('utm_templates')
    .addColumn('id', id, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(64)', (c) => c.notNull());
  for (const param of ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content']) {
    table = table.addColumn(param, 'varchar(200)', (c) => c.notNull().defaultTo(''));
  }
  await table
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('updated_at', bigint, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('utm_templates_name')
    .unique()
    .on('utm_templates')
    .columns(['account_id', 'name_key'])
    .execute();
  await db.schema.createIndex('utm_templates_account').on('utm_templates').columns(['account_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('utm_templates').execute();
}
