import type { Kysely, Transaction } from 'kysely';
import type { DrainedTotals } from '../window/link-totals.ts';
import type { RollupWindow } from '../window/rollup-window.ts';
import type { Database } from '../../storage/schema.ts';
import { capped, linkUpdates, rollUpWritten, uncapped } from '../recovery/click-recovery.ts';
import { recoveryStatements } from '../recovery/click-recovery-statements.ts';
import { BinaryArrayWriter } from '../../storage/stores/pg-binary-arrays.ts';
import { pgClickArrays } from './pg-click-arrays.ts';
import { insertClickArrays, pgClickStatements as statements, type PgRecord } from './pg-click-statements.ts';
import { columnsOf } from '../sink/click-columns.ts';
import { writeRollups } from '../writer/rollup-writes.ts';
import type { ClickWrites, RowsWritten } from '../writer/click-writes.ts';
import { lostCommit } from './pg-lost-commit.ts';
import type { WriterBatch } from '../thread/worker-messages.ts';
import { SEGMENT_MARK_MS } from '../spool/click-spool.ts';

/**
 * PostgreSQL's click writes, for ClickWriter, through pgClickStatements. A batch keeps its links
 * from being deleted and updates only the capped ones; a window writes marks, then rollup rows,
 * then the links' counters, each in key order; both lock links' rows last, in id order.
 * Instances writing to one PostgreSQL at once wait for each other but never deadlock, and a long
 * window write holds up no batch, and an edit of a link only for its last statement
 * (docs/design/clicks.md). A batch whose COMMIT's answer was lost is found out by its
 * transaction's status and record (pg-lost-commit.ts).
 */
export class PgClickWrites implements ClickWrites {
  private readonly recovery = recoveryStatements('postgres');
  /** The record of the last writeRows that got as far as its COMMIT; null: it made none, or never sent its COMMIT. */
  private sent: PgRecord | null = null;
  /** The buffer the batches' arrays are written into, kept from batch to batch. */
  private readonly arrays = new BinaryArrayWriter();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: { owner?: string | undefined; close?: () => Promise<void> } = {},
  ) {}

  writeRows(batch: WriterBatch): Promise<RowsWritten> {
    this.sent = null;
    return this.db.transaction().execute(async (trx) => {
      const ids = [...batch.linkIds].sort((a, b) => a - b);
      // A link deleted while its clicks were buffered has no row to point at any more.
      const live = await statements.keepLinks(trx, ids);
      // The rows in link order (pg-click-arrays.ts), so their entries in the (link_id, at) index go in one walk along it.
      const rows = pgClickArrays(columnsOf(batch.clicks), (id) => live.has(id), this.arrays);
      const record = await insertClickArrays(trx, rows, this.options.owner);
      // A capped link's count goes with its rows: the database's count of its cap, opened when
      // Redis goes away, starts from it (docs/design/caps.md, docs/design/clicks.md).
      await statements.updateLinks(
        trx,
        linkUpdates({ counts: capped(batch.counts, live), rotations: new Map() }, live),
      );
      if (batch.segment !== undefined) await markSegment(trx, batch.segment);
      this.sent = record; // the COMMIT goes next: should its answer be lost, committed() asks how it ended
      return { recorded: record?.id ?? null, later: [...uncapped(batch.counts, live)] };
    });
  }

  committed(batch: WriterBatch, since: number): Promise<RowsWritten | null> {
    // Null: no COMMIT was sent, or the transaction wrote nothing (no click of a live link), or no
    // record is made (no owner) — then, and only then, a commit whose answer was lost is written
    // again and counted twice, as before records could tell.
    if (this.sent === null || this.options.owner === undefined) return Promise.resolve(null);
    return lostCommit(this.db, this.sent, this.options.owner, since, batch);
  }

  async segmentWritten(id: string): Promise<boolean> {
    const row = await this.db.selectFrom('click_spool_segments').select('id').where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  }

  writeWindow(window: RollupWindow, totals: DrainedTotals, pending: readonly number[]): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const released = await this.recovery.release(trx, pending);
      if (released.length < pending.length) {
        await rollUpWritten(trx, statements, this.recovery, released, totals.rotations);
        return false;
      }
      const live = await statements.keepLinks(trx, linksOf(window.linkIds(), totals));
      await writeRollups(trx, statements, window, live);
      await statements.countWindow(trx, linkUpdates(totals, live));
      return true;
    });
  }

  async close(): Promise<void> {
    await this.options.close?.();
  }
}

/**
 * A spool segment's mark, in its rows' transaction; marks older than SEGMENT_MARK_MS go (a
 * replay retried that long after is not expected: segments are written as soon as the database answers).
 */
async function markSegment(trx: Transaction<Database>, id: string): Promise<void> {
  const now = Date.now();
  await trx
    .deleteFrom('click_spool_segments')
    .where('written_at', '<', now - SEGMENT_MARK_MS)
    .execute();
  await trx.insertInto('click_spool_segments').values({ id, written_at: now }).execute();
}

/** The links a window writes to, in id order. */
function linksOf(rollupLinks: readonly number[], { counts, rotations }: DrainedTotals): number[] {
  return [...new Set([...rollupLinks, ...counts.keys(), ...rotations.keys()])].sort((a, b) => a - b);
}
