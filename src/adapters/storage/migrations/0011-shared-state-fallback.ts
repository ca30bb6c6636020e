import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * Where click caps and rotation are counted while Redis is away (docs/design/outages.md). A claim row is
 * open while instances without Redis count in it and closed (with when) once one has Redis again;
 * a cursor row lives only while the database holds the rotation.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  await db.schema
    .createTable('click_claims')
    .addColumn('link_id', 'integer', (c) => c.primaryKey().references('links.id').onDelete('cascade'))
    .addColumn('claimed', 'integer', (c) => c.notNull())
    .addColumn('open', 'integer', (c) => c.notNull())
    .addColumn('closed_at', bigint)
    .execute();
  await db.schema
    .createTable('rotation_cursors')
    .addColumn('link_id', 'integer', (c) => c.primaryKey().references('links.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rotation_cursors').execute();
  await db.schema.dropTable('click_claims').execute();
}
