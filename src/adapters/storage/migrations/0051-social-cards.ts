import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * Link previews (docs/design/social-cards.md): a link's own card and the destination's og: tags
 * fetched with its title, each JSON text `{title, description, image}` read with the row, never
 * queried into; and a card's uploaded image, one row a link, gone with it (as its QR logo).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  await db.schema.alterTable('links').addColumn('social_card', 'text').execute();
  await db.schema.alterTable('links').addColumn('page_card', 'text').execute();
  await db.schema
    .createTable('link_card_images')
    .addColumn('link_id', 'integer', (c) => c.primaryKey().references('links.id').onDelete('cascade'))
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('bytes', engine === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('link_card_images').execute();
  await db.schema.alterTable('links').dropColumn('page_card').execute();
  await db.schema.alterTable('links').dropColumn('social_card').execute();
}
