import type { Kysely } from 'kysely';
import type { Click } from '../../../core/clicks/click.ts';
import type { ClickBatch, ClickStore } from '../../../core/clicks/ports.ts';
import { LinkTotals, type DrainedTotals } from '../../../core/clicks/link-totals.ts';
import { RollupWindow } from '../../../core/stats/rollup-window.ts';
import { windowDue } from '../../../core/stats/window-policy.ts';
import type { Engine } from '../connect.ts';
import type { Database } from '../schema.ts';
import type { ClickStatements } from './click-statements.ts';
import { capped, linkUpdates, rollUpWritten, uncapped } from './click-recovery.ts';
import { recoveryStatements, type RecoveryStatements } from './click-recovery-statements.ts';
import { pgClickStatements } from './pg-click-statements.ts';
import { writeRollups } from './rollup-writes.ts';
import { sqliteClickStatements } from './sqlite-click-statements.ts';

// A window write that failed with no batch coming to retry it is tried again after this long
// at the soonest (so a database that is away is not asked again and again).
const MIN_RETRY_MS = 1_000;

export interface SqlClickStoreOptions {
  /**
   * STATS_FLUSH_INTERVAL_MS: how long rollups and visitor marks are summed across batches
   * before they are written (sooner when the window is small or large); 0 writes them after
   * every batch.
   */
  windowMs: number;
  /**
   * A window write that failed where no caller waits for it; the window keeps it for the next.
   * Told once an outage: the failures after it are counted until a window is written again.
   */
  onError(error: unknown): void;
  /** A window written again after failed attempts (the end of what onError told). */
  onResumed?: (message: string) => void;
  /**
   * The writer whose lease covers this store's batches: each batch is recorded as not yet rolled
   * up, so that another instance can roll it up should this one die first (docs/adr/0034).
   * Without it, nothing is recorded (tests, one-off tools).
   */
  owner?: string;
}

/**
 * The click writer of PostgreSQL (and of an in-memory SQLite database). Each batch's rows go in
 * a transaction of their own, recorded as not yet rolled up (docs/adr/0034), with the counters
 * of the links that have a click cap. The other links' counters and every rotation position are
 * summed in LinkTotals and the rollups and visitor marks in a RollupWindow, as the SQLite writer
 * thread sums them, and all of it is written in one transaction when windowDue() says so, when
 * the interval has passed with no batch to notice, on settle() (every sink flush and stop), and
 * after a failure at the next batch: under heavy traffic a link's row is updated once a window,
 * not once a batch (docs/adr/0010, 0039).
 * A batch keeps its links from being deleted and updates only the capped ones; a window writes
 * marks, then rollup rows, then the links' counters, each in key order; both lock links' rows
 * last, in id order. Instances writing to one PostgreSQL at once wait for each other but never
 * deadlock, and a long window write holds up no batch, and an edit of a link only for its last
 * statement (docs/adr/0016, 0023).
 */
export class SqlClickStore implements ClickStore {
  private readonly statements: ClickStatements;
  private readonly recovery: RecoveryStatements;
  private readonly window = new RollupWindow();
  private readonly totals = new LinkTotals();
  /** The records of the batches the window sums (click_batches_pending). */
  private pending: number[] = [];
  /** When the clicks the window holds began to be added. */
  private windowSince = 0;
  /** Window writes failed in a row (an outage); told once, and its end. */
  private windowFailures = 0;
  /** The last window write begun: the next one waits for it, so they never run at once. */
  private lastWrite: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    engine: Engine,
    private readonly options: SqlClickStoreOptions,
  ) {
    this.statements = engine === 'postgres' ? pgClickStatements : sqliteClickStatements;
    this.recovery = recoveryStatements(engine);
  }

  async writeBatch(batch: ClickBatch): Promise<void> {
    const s = this.statements;
    const { clicks, pending, later } = await this.db.transaction().execute(async (trx) => {
      const ids = [...new Set(batch.clicks.map((c) => c.linkId))].sort((a, b) => a - b);
      // A link deleted while its clicks were buffered has no row to point at any more.
      const live = await s.keepLinks(trx, ids);
      const kept = live.size === ids.length ? batch.clicks : batch.clicks.filter((c) => live.has(c.linkId));
      const recorded = await s.insertClicks(trx, kept, this.options.owner);
      // A capped link's count goes with its rows: the database's count of its cap, opened when
      // Redis goes away, starts from it (docs/adr/0029, 0039).
      await s.updateLinks(trx, linkUpdates({ counts: capped(batch.counts, live), rotations: new Map() }, live));
      return { clicks: kept, pending: recorded, later: { counts: uncapped(batch.counts, live), rotations: batch.rotations } };
    });
    this.add(clicks, later);
    if (pending !== null) this.pending.push(pending);
    const { windowMs } = this.options;
    if (windowDue({ rows: this.windowRows, ageMs: Date.now() - this.windowSince, intervalMs: windowMs })) {
      try {
        await this.writeWindow();
      } catch (error) {
        // The rows are written: failing the batch would make the sink write them again. The
        // window kept what failed; the next batch, the timer or settle() writes it.
        this.windowFailed(error);
      }
    }
    this.schedule(Math.max(0, this.windowSince + windowMs - Date.now()));
  }

  /** Rows (rollup sums, visitor marks and links' counters) summed and not yet written. */
  get windowRows(): number {
    return this.window.size + this.totals.size;
  }

  /** Writes the window now; rejects if that fails (it is kept for the next try). */
  async settle(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.writeWindow();
  }

  private add(clicks: readonly Click[], totals: DrainedTotals): void {
    if (clicks.length === 0) return;
    if (this.windowRows === 0) this.windowSince = Date.now();
    this.window.add(clicks);
    this.totals.add(totals); // a link deleted since has no row for its counter: the window's write skips it
  }

  private writeWindow(): Promise<void> {
    const write = this.lastWrite.then(() => this.writeWindowNow());
    this.lastWrite = write.catch(() => undefined); // the order only: the error is the caller's
    return write;
  }

  /**
   * The window in one transaction, with the deletion of its batches' records; on failure it all
   * goes back, to be written once, later. Should a recovery have claimed some of them (this
   * instance's lease ran out while it stalled), the window is dropped and what is still this
   * instance's is rolled up and counted from its click rows instead: each batch counted once
   * either way.
   */
  private async writeWindowNow(): Promise<void> {
    if (this.windowRows === 0) return;
    const since = this.windowSince;
    const taken = this.window.take();
    const totals = this.totals.drain();
    const pending = this.pending;
    this.pending = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        const released = await this.recovery.release(trx, pending);
        if (released.length < pending.length) {
          await rollUpWritten(trx, this.statements, this.recovery, released, totals.rotations);
          return;
        }
        const live = await this.statements.keepLinks(trx, linksOf(taken.linkIds(), totals));
        await writeRollups(trx, this.statements, taken, live);
        await this.statements.updateLinks(trx, linkUpdates(totals, live));
      });
    } catch (error) {
      this.window.absorb(taken);
      this.totals.putBack(totals);
      this.pending = pending.concat(this.pending);
      this.windowSince = since;
      this.windowFailures++;
      throw error;
    }
    if (this.windowFailures > 0) {
      this.options.onResumed?.(`click statistics written again after ${this.windowFailures} failed attempts`);
      this.windowFailures = 0;
    }
  }

  /** Tells the first failure of an outage (every window write since counts in windowFailures). */
  private windowFailed(error: unknown): void {
    if (this.windowFailures === 1) this.options.onError(error);
  }

  /**
   * Writes the window after `delayMs` unless a batch or settle() does first: without one, a
   * burst's statistics would wait for the next click. The timer does not keep the process up.
   */
  private schedule(delayMs: number): void {
    if (this.timer !== null || this.windowRows === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.writeWindow().then(
        () => this.schedule(Math.max(0, this.windowSince + this.options.windowMs - Date.now())),
        (error: unknown) => {
          this.windowFailed(error);
          this.schedule(Math.max(MIN_RETRY_MS, this.options.windowMs));
        },
      );
    }, delayMs);
    this.timer.unref();
  }
}

/** The links a window writes to, in id order. */
function linksOf(rollupLinks: readonly number[], { counts, rotations }: DrainedTotals): number[] {
  return [...new Set([...rollupLinks, ...counts.keys(), ...rotations.keys()])].sort((a, b) => a - b);
}
