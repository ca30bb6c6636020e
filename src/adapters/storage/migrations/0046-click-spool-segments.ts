import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * The spool segments already written (docs/design/clicks.md, "The spool"): a segment's id is
 * inserted in the transaction of its click rows, so a segment replayed again after a crash
 * between that commit and the file's removal is known as written and removed unwritten. Marks
 * older than a week are deleted by the same writes: no segment waits that long on disk.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  await db.schema
    .createTable('click_spool_segments')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('written_at', bigint, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('click_spool_segments').execute();
}
