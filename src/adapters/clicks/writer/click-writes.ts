import type { DrainedTotals } from '../window/link-totals.ts';
import type { RollupWindow } from '../window/rollup-window.ts';
import type { WriterBatch } from '../thread/worker-messages.ts';

/**
 * What a batch's transaction leaves for the window: the counts of the links without a click cap
 * (docs/design/clicks.md).
 */
export interface RowsWritten {
  /** The batch's record (click_batches_pending, docs/design/clicks.md), or null when none was made. */
  recorded: number | null;
  later: Array<[number, number]>;
  /**
   * committed() only: a recovery has claimed the batch's record and rolled it up already (its
   * writer's lease ran out meanwhile): of the batch, only its rotations are left for the window.
   */
  rolledUp?: true;
}

/**
 * One engine's writes of clicks, each in a transaction of its own, for ClickWriter: SQLite's
 * (sqlite-click-writes.ts) and PostgreSQL's (pg-click-writes.ts).
 */
export interface ClickWrites {
  /**
   * One transaction: the batch's click rows of the links that still exist, their record as not
   * yet rolled up, the counters of the capped links, and the batch's spool segment (if any) as
   * written. A replay after a cut finds either all of it or none (docs/design/clicks.md). The
   * clicks may be one reused object: only their fields count.
   */
  writeRows(batch: WriterBatch): Promise<RowsWritten>;
  /**
   * Asked before `batch`, whose writeRows was the last call and failed, is written again:
   * whether that transaction committed all the same (its answer lost in a cut), and if so the
   * batch's record (this owner's, newer than `since`: the newest record the writer was told of)
   * — PostgreSQL by the transaction's status and the record it made (pg-lost-commit.ts), SQLite
   * by what its own thread saw. Answers what writeRows would have (PostgreSQL: `later` from the
   * links' caps as they are now), `rolledUp` if a recovery has claimed the record, or null: it
   * did not commit, write it again. Null too when no records are made (no owner): a commit whose
   * answer was lost is then written twice. Rejects while it cannot tell (docs/design/clicks.md).
   */
  committed(batch: WriterBatch, since: number): Promise<RowsWritten | null>;
  /**
   * Whether a spool segment's rows are written (its id in click_spool_segments, inserted by the
   * writeRows of a batch with that `segment`): a segment found written is removed unwritten.
   */
  segmentWritten(id: string): Promise<boolean>;
  /**
   * One transaction: the window's rollups and visitor marks, the links' counters and rotation
   * positions, and the release of the records of the batches they sum. Should a recovery have
   * claimed some of those batches, the window is dropped and what is still ours is rolled up
   * from its rows instead. On failure `window` holds what it held, to be tried again.
   * Resolves true when the window itself was written (its visitor marks with it), false when it
   * was dropped for the roll-up from the rows, which hold no visitor.
   */
  writeWindow(window: RollupWindow, totals: DrainedTotals, pending: readonly number[]): Promise<boolean>;
  /** Called when nothing waits, every write interval (SQLite checkpoints its WAL then). */
  idle?(): void;
  /** Closes the connection, if the writes own it. */
  close(): Promise<void>;
}
