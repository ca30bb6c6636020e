import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

// Larger than the most clicks one write holds (CLICK_BATCH_SIZE's bound, and the writer's early
// write): a write crosses into a new block at most once.
const IDS_PER_BLOCK = 1_000_000;

/**
 * PostgreSQL: each connection takes click ids from the sequence a block at a time, so that the
 * ids of one write are one unbroken range, which its recovery record keeps instead of the list of
 * its ids (docs/design/clicks.md). A block's unused ids are lost when its connection closes: ids are
 * bigint and only order and identify rows. SQLite: unchanged (one writer).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`alter sequence clicks_id_seq cache ${sql.lit(IDS_PER_BLOCK)}`.execute(db);
}

export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`alter sequence clicks_id_seq cache 1`.execute(db);
}
