import { sql, type Kysely } from 'kysely';
import type { Database } from '../../storage/schema.ts';
import { uncapped } from '../recovery/click-recovery.ts';
import { pgClickStatements as statements, type PgRecord } from './pg-click-statements.ts';
import type { RowsWritten } from '../writer/click-writes.ts';
import type { WriterBatch } from '../thread/worker-messages.ts';

// txid_status's answer for a transaction id the server has not given yet.
const INVALID_PARAMETER_VALUE = '22023';

/**
 * PostgreSQL's answer to ClickWrites.committed for a batch whose COMMIT was sent and whose answer
 * never came (`sent`: its record's transaction and server process). The transaction's status
 * decides, not the record alone: a COMMIT still under way when the record is looked for (the old
 * server process not yet done with it) would be written again, and a record a recovery claimed
 * (the writer's lease ran out during the cut) is gone though the batch is written and rolled up
 * (docs/design/clicks.md).
 */
export async function lostCommit(
  db: Kysely<Database>,
  sent: PgRecord,
  owner: string,
  since: number,
  batch: WriterBatch,
): Promise<RowsWritten | null> {
  const status = await statusOf(db, sent.xid);
  if (status === 'aborted') return null;
  if (status === 'in progress') {
    // The connection is gone but its server process may not know yet (a cut): ended, its
    // transaction commits or aborts for good, and the next try can tell which.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where pid = ${sent.pid} and backend_xid::text = (${sent.xid}::bigint % 4294967296)::text`
      .execute(db)
      .catch(() => undefined);
    throw new Error(
      'the click write whose answer was lost is still in progress on the database; asked again at the next try',
    );
  }
  // A statement after the status's: its snapshot sees the commit the status saw. The record is the
  // one that transaction made (xmin), not one a writer thread of this owner that died left.
  return db.transaction().execute(async (trx) => {
    const { rows: found } = await sql<{ id: string | number }>`
      select id from click_batches_pending
      where owner = ${owner} and id > ${since} and xmin::text = (${sent.xid}::bigint % 4294967296)::text order by id limit 1`.execute(
      trx,
    );
    const record = found[0];
    if (record === undefined) return status === 'committed' ? { recorded: null, later: [], rolledUp: true } : null;
    // The capped links' counters went with the rows; a link deleted since is counted by no one.
    const live = await statements.keepLinks(
      trx,
      [...batch.linkIds].sort((a, b) => a - b),
    );
    return { recorded: Number(record.id), later: [...uncapped(batch.counts, live)] };
  });
}

/** txid_status; an id "in the future" is one a failover lost (the promoted standby never had it): it never committed here. */
async function statusOf(db: Kysely<Database>, xid: string): Promise<string | null> {
  try {
    const { rows } = await sql<{ status: string | null }>`select txid_status(${xid}::bigint) as status`.execute(db);
    return rows[0]?.status ?? null;
  } catch (error) {
    if ((error as { code?: unknown }).code === INVALID_PARAMETER_VALUE) return 'aborted';
    throw error;
  }
}
