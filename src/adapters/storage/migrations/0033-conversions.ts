import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * Conversions (docs/design/rules.md): a link's track_conversions switch; each click's deciding rule and
 * split variant (null: the link's url), so results per variant count the click rows; and the
 * conversions, one per click id and name (the unique index makes a repeat, concurrent or not,
 * find the first).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { id, bigint } = columnTypes(engine);
  await db.schema
    .alterTable('links')
    .addColumn('track_conversions', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('clicks').addColumn('rule', 'integer').execute();
  await db.schema.alterTable('clicks').addColumn('variant', 'integer').execute();

  const table = db.schema.createTable('conversions');
  await (
    engine === 'postgres'
      ? table.addColumn('id', id, (c) => c.primaryKey())
      : table.addColumn('id', id, (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('link_id', 'integer', (c) => c.notNull().references('links.id').onDelete('cascade'))
    .addColumn('click_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('rule', 'integer')
    .addColumn('variant', 'integer')
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('value', engine === 'postgres' ? 'double precision' : 'real')
    .addColumn('currency', 'varchar(3)')
    .addColumn('clicked_at', bigint, (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('conversions_click_name')
    .unique()
    .on('conversions')
    .columns(['click_id', 'name'])
    .execute();
  await db.schema.createIndex('conversions_link').on('conversions').columns(['link_id', 'rule', 'variant']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('conversions').execute();
  await db.schema.alterTable('clicks').dropColumn('variant').execute();
  await db.schema.alterTable('clicks').dropColumn('rule').execute();
  await db.schema.alterTable('links').dropColumn('track_conversions').execute();
}
