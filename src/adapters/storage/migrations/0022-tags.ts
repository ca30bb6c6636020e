import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * Tags (docs/design/links.md): an account's names, unique ignoring case (`name_key`, lowered), and
 * which links carry them. `link_tags` is keyed by link (a page's links read their tags) and
 * indexed by tag then link, which the list's `tag=` filter and a tag's link count read.
 * Deleting a link or a tag deletes its pairs, never the other side.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { id, bigint } = columnTypes(engine);
  let tags = db.schema.createTable('tags');
  tags =
    engine === 'postgres'
      ? tags.addColumn('id', id, (c) => c.primaryKey())
      : tags.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await tags
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    // 32 characters; room for lowering, which can lengthen a name (İ).
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(128)', (c) => c.notNull())
    .addColumn('color', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('updated_at', bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tags_name').unique().on('tags').columns(['account_id', 'name_key']).execute();
  await db.schema
    .createTable('link_tags')
    .addColumn('link_id', 'integer', (c) => c.notNull().references('links.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('link_tags_pk', ['link_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('link_tags_tag').on('link_tags').columns(['tag_id', 'link_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('link_tags').ifExists().execute();
  await db.schema.dropTable('tags').ifExists().execute();
}
