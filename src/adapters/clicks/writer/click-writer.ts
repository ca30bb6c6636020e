import { LinkTotals } from '../window/link-totals.ts';
import { RollupWindow } from '../window/rollup-window.ts';
import { windowDue } from '../window/window-policy.ts';
import { WrittenMarks } from '../window/written-marks.ts';
import type { ClickWrites, RowsWritten } from './click-writes.ts';
import { WaitingClicks, type BatchMessage, type WaitingBatch } from '../thread/worker-messages.ts';
import { writeDueIn } from './write-due.ts';
import { Scheduler } from '../../shared/scheduler.ts';
import { ClickColumnsView } from '../sink/click-columns.ts';
import type { ClickSpool, SpoolSegment } from '../spool/click-spool.ts';

// Written sooner than the interval only past this many: a transaction's cost is mostly per link
// and per page it touches, so fewer, larger ones write each click for less (docs/performance.md).
const WRITE_EARLY_AT = 50_000;
// Retries while the database is away back off up to this.
const MAX_RETRY_MS = 30_000;
// A window write that failed with no batch to retry it is tried again after this long at the soonest.
const MIN_WINDOW_RETRY_MS = 1_000;
const CLOSE_ATTEMPTS = 5;

export interface ClickWriterOptions {
  /** CLICK_FLUSH_INTERVAL_MS: a click's row is written about this long after it was recorded (write-due.ts). */
  writeIntervalMs: number;
  /** STATS_FLUSH_INTERVAL_MS: how long rollups and counters are summed before they are written (0: with every batch). */
  windowMs: number;
  /** A window smaller than this is written with its batch (window-policy.ts's by default; tests hold every window with 0). */
  promptWindowRows?: number;
  /** CLICK_BUFFER_MAX: clicks kept at most while the database is away; newer ones are dropped and told. */
  maxBuffered: number;
  /** A failure: told once per outage, and clicks lost at the stop. */
  onError(error: unknown): void;
  /** Writes succeed again after failed attempts. */
  onResumed(message: string): void;
  /** Clicks written (their rows committed, and a window due with them written) and how long the rows took. */
  onWritten(clicks: number, ms: number): void;
  /** Clicks dropped because the buffer (and the spool, if any) was full. */
  onDropped(clicks: number): void;
  /** Past the buffer, clicks go to this spool on disk (docs/design/clicks.md); none: they are dropped. */
  spool?: ClickSpool | null | undefined;
  /** Clicks kept in the spool because the buffer was full. */
  onSpooled?(clicks: number): void;
}

/**
 * The click writer, for either engine: it keeps the clicks handed over (in columns), writes them
 * in a transaction a batch once the oldest is due, with the batch's recovery record, and sums
 * their rollups and uncapped counters in a window written every STATS_FLUSH_INTERVAL_MS
 * (docs/design/clicks.md). A batch whose write fails is kept apart and retried alone,
 * before what arrived since, backing off while the database is away; the database is first
 * asked whether its commit went through (a cut may lose the answer), so it never counts twice.
 * Writes never overlap. It runs on the writer thread, or, for an in-memory SQLite database that
 * only the server's connection sees, in the server's process.
 */
export class ClickWriter {
  private readonly waiting = new WaitingClicks();
  /** A batch whose write failed: it may have committed (its answer lost), so it is never merged with newer clicks. */
  private failed: { batch: WaitingBatch; clicks: number } | null = null;
  /** The newest batch record this writer was told of: a failed batch's, had it committed, is newer. */
  private lastRecord = 0;
  /** A spool segment whose write failed: its mark, if found, means its answer was lost, and committed() gives its record. */
  private failedSegment: SpoolSegment | null = null;
  /** The visitor marks of the windows written so far (the last days'): not sent again. */
  private readonly marksWritten = new WrittenMarks();
  private readonly window = new RollupWindow(this.marksWritten);
  private readonly totals = new LinkTotals();
  /** The records of the batches the window sums (click_batches_pending). */
  private pending: number[] = [];
  private windowSince = 0;
  /** The last write begun: the next waits for it. */
  private chain: Promise<void> = Promise.resolve();
  private due: NodeJS.Timeout | null = null;
  private windowTimer: NodeJS.Timeout | null = null;
  /** The writer's one background job: the idle checkpoint (src/app/background-jobs.ts lists it). */
  private readonly jobs: Scheduler;
  private failures = 0;
  private windowFailures = 0;
  private dropped = 0;
  private closing = false;

  constructor(
    private readonly writes: ClickWrites,
    private readonly options: ClickWriterOptions,
  ) {
    this.jobs = new Scheduler((error) => options.onError(error));
    const idle = writes.idle?.bind(writes);
    if (idle) {
      this.jobs.add({
        name: 'click writer idle checkpoint',
        intervalMs: options.writeIntervalMs,
        round: async () => (this.waiting.count === 0 ? idle() : undefined),
      });
    }
    this.jobs.start();
    // A spool left by an earlier process (a kill -9, an outage at the stop) is written first.
    if ((options.spool?.size ?? 0) > 0) this.writeSoon(0);
  }

  /** Clicks handed over and not yet written. */
  get count(): number {
    return this.waiting.count + (this.failed?.clicks ?? 0);
  }

  /** Rows (rollup sums, visitor marks and links' counters) summed and not yet written. */
  get windowRows(): number {
    return this.window.size + this.totals.size;
  }

  /** Keeps a batch handed over; it is written when its oldest click is due. */
  add(message: BatchMessage): void {
    if (this.count + message.clicks.count > this.options.maxBuffered) return this.spoolOrDrop(message);
    this.waiting.add(message);
    if (this.waiting.count >= WRITE_EARLY_AT) this.writeSoon(0);
    else this.writeWhenDue();
  }

  /**
   * Writes the rows of everything handed over so far now (what the due timer runs); their rollups
   * and counters join the window.
   */
  write(): Promise<void> {
    return this.serially(async () => {
      await this.writeWaiting();
      await this.replaySegment();
    });
  }

  /** Writes everything handed over so far, rollups and counters included; rejects if that fails (all of it is kept). */
  settle(): Promise<void> {
    return this.serially(async () => {
      await this.writeWaiting();
      while (await this.replaySegment());
      await this.writeWindow();
    });
  }

  /** Settles, retrying a few times while the database is away, tells what could not be written, and closes the connection. */
  async close(): Promise<void> {
    this.closing = true;
    for (const timer of [this.due, this.windowTimer]) if (timer !== null) clearTimeout(timer);
    await this.jobs.stop();
    let failure: unknown = null;
    for (let attempt = 0; attempt < CLOSE_ATTEMPTS; attempt++) {
      try {
        await this.settle();
        failure = null;
        break;
      } catch (error) {
        failure = error;
        await new Promise((resolve) => setTimeout(resolve, 200 * (attempt + 1)));
      }
    }
    if (failure !== null && this.spoolWaiting()) failure = null;
    if (failure !== null) {
      this.options.onError(
        new Error(`${this.count} clicks and a rollup window could not be written before the stop`, { cause: failure }),
      );
    }
    await this.writes.close();
  }

  private spoolOrDrop(message: BatchMessage): void {
    const { spool } = this.options;
    const clicks = message.clicks.count;
    const batch = { ...message, clicks: new ClickColumnsView([message.clicks]) };
    if (spool && this.appended(spool, batch)) return this.options.onSpooled?.(clicks);
    this.drop(clicks);
  }

  /** A spool that cannot be written (a full or read-only disk) drops the hand-over, as a full one does. */
  private appended(spool: ClickSpool, batch: Parameters<ClickSpool['append']>[0]): boolean {
    try {
      return spool.append(batch);
    } catch (error) {
      if (this.dropped === 0) this.options.onError(new Error('click spool not written', { cause: error }));
      return false;
    }
  }

  /**
   * At a stop the database could not answer: what waits goes to the spool, to be written by the
   * next start. Not a failed batch: it may have committed, and only its writer could ask.
   */
  private spoolWaiting(): boolean {
    const { spool } = this.options;
    if (!spool || this.failed !== null || this.waiting.count === 0) return false;
    const clicks = this.waiting.count;
    if (!this.appended(spool, this.waiting.take())) return false;
    this.options.onSpooled?.(clicks);
    this.options.onError(new Error(`${clicks} clicks kept in the click spool at the stop: written by the next start`));
    return true;
  }

  /**
   * The oldest spool segment: removed unwritten if its mark says it is written (a crash between
   * its commit and its removal, or a lost answer), else written in one transaction with its mark,
   * then removed. Answers whether one was done with.
   */
  private async replaySegment(): Promise<boolean> {
    const spool = this.options.spool;
    const id = spool?.oldest() ?? null;
    if (!spool || id === null) return false;
    const started = performance.now();
    let segment;
    let written;
    try {
      if (await this.writes.segmentWritten(id)) return await this.segmentFound(id, started);
      segment = await spool.read(id);
      this.failedSegment = segment;
      written = await this.writes.writeRows({ ...segment.batch, segment: id });
      this.failedSegment = null;
    } catch (error) {
      this.writeFailed(error);
      throw error;
    }
    spool.remove(id);
    await this.joinWindow(segment.batch, segment.clicks, written, started);
    return true;
  }

  /**
   * A segment marked written: removed. Had its write failed here (a lost answer), its record is
   * this writer's and joins the window; one of an earlier process is that owner's, rolled up by
   * the recovery once its lease has run out.
   */
  private async segmentFound(id: string, started: number): Promise<boolean> {
    const lost = this.failedSegment?.id === id ? this.failedSegment : null;
    this.failedSegment = null;
    const written = lost === null ? null : await this.writes.committed(lost.batch, this.lastRecord);
    this.options.spool!.remove(id);
    if (lost !== null && written !== null) await this.joinWindow(lost.batch, lost.clicks, written, started);
    return true;
  }

  private drop(clicks: number): void {
    if (this.dropped === 0) {
      this.options.onError(
        new Error(
          `click buffer full (${this.options.maxBuffered} clicks waiting for the database): newer clicks are dropped until it is back`,
        ),
      );
    }
    this.dropped += clicks;
    this.options.onDropped(clicks);
  }

  private serially(work: () => Promise<void>): Promise<void> {
    const run = this.chain.then(work);
    this.chain = run.catch(() => undefined); // the order only: the error is the caller's
    return run;
  }

  private writeWhenDue(): void {
    const since = this.waiting.since;
    if (this.due !== null || since === null || this.closing) return;
    this.writeSoon(writeDueIn(since, this.options.writeIntervalMs, Date.now()));
  }

  private writeSoon(delayMs: number): void {
    if (this.closing) return;
    if (this.due !== null) clearTimeout(this.due);
    this.due = setTimeout(() => {
      this.due = null;
      this.write().then(
        () => ((this.options.spool?.size ?? 0) > 0 ? this.writeSoon(0) : this.writeWhenDue()),
        () => this.writeSoon(Math.min(Math.min(this.options.writeIntervalMs, 1000) * 2 ** this.failures, MAX_RETRY_MS)),
      );
    }, delayMs);
    this.due.unref();
  }

  /** A failed batch first, alone; then everything waiting, in one transaction; each one's rollups and counters join the window. */
  private async writeWaiting(): Promise<void> {
    if (this.failed !== null) await this.retryFailed();
    const clicks = this.waiting.count;
    if (clicks === 0) return;
    const started = performance.now();
    const batch = this.waiting.take();
    let written;
    try {
      written = await this.writes.writeRows(batch);
    } catch (error) {
      this.failed = { batch, clicks };
      this.writeFailed(error);
      throw error;
    }
    await this.joinWindow(batch, clicks, written, started);
  }

  /** The failed batch: taken as written if its transaction committed all the same, else written again. */
  private async retryFailed(): Promise<void> {
    const { batch, clicks } = this.failed!;
    const started = performance.now();
    let written;
    try {
      written = (await this.writes.committed(batch, this.lastRecord)) ?? (await this.writes.writeRows(batch));
    } catch (error) {
      this.writeFailed(error);
      throw error;
    }
    this.failed = null;
    await this.joinWindow(batch, clicks, written, started);
  }

  private writeFailed(error: unknown): void {
    if (this.failures++ === 0)
      this.options.onError(
        new Error(`clicks not written; ${this.count} kept and retried until the database answers`, { cause: error }),
      );
  }

  /** A batch's rows are committed: its record, rollups and uncapped counters join the window (a batch a recovery rolled up, its rotations only). */
  private async joinWindow(batch: WaitingBatch, clicks: number, written: RowsWritten, started: number): Promise<void> {
    if (this.failures > 0) this.resumed();
    if (written.recorded !== null) {
      this.pending.push(written.recorded);
      this.lastRecord = Math.max(this.lastRecord, written.recorded);
    }
    if (this.window.size + this.totals.size === 0) this.windowSince = Date.now();
    this.totals.add({ counts: written.later, rotations: batch.rotations });
    if (written.rolledUp !== true) this.window.add(batch.clicks);
    const ms = performance.now() - started;
    const { windowMs } = this.options;
    if (
      windowDue({
        rows: this.window.size + this.totals.size,
        ageMs: Date.now() - this.windowSince,
        intervalMs: windowMs,
        promptRows: this.options.promptWindowRows,
      })
    ) {
      // The rows are written: a window that fails must not make them be written again.
      await this.writeWindow().catch(() => undefined);
    }
    // Told once the window due with the rows is written too: what is told written is done with.
    this.options.onWritten(clicks, ms);
    this.scheduleWindow(Math.max(0, this.windowSince + windowMs - Date.now()));
  }

  private async writeWindow(): Promise<void> {
    if (this.window.size === 0 && this.totals.size === 0) return;
    const since = this.windowSince;
    const taken = this.window.take();
    const totals = this.totals.drain();
    const pending = this.pending;
    this.pending = [];
    // Read before the write: a writer may drain the window it is given.
    const marks = taken.markSets();
    let written: boolean;
    try {
      written = await this.writes.writeWindow(taken, totals, pending);
    } catch (error) {
      this.window.absorb(taken);
      this.totals.putBack(totals);
      this.pending = pending.concat(this.pending);
      this.windowSince = since;
      if (this.windowFailures++ === 0) this.options.onError(error);
      throw error;
    }
    // A window dropped for a recovery's roll-up from the rows wrote no mark.
    if (written) this.marksWritten.addAll(marks);
    if (this.windowFailures > 0) {
      this.options.onResumed(`click statistics written again after ${this.windowFailures} failed attempts`);
      this.windowFailures = 0;
    }
  }

  /** Writes the window after `delayMs` unless a batch or a settle does first: a burst's statistics do not wait for the next click. */
  private scheduleWindow(delayMs: number): void {
    if (this.windowTimer !== null || this.closing || this.window.size + this.totals.size === 0) return;
    this.windowTimer = setTimeout(() => {
      this.windowTimer = null;
      this.serially(() => this.writeWindow()).then(
        () => this.scheduleWindow(Math.max(0, this.windowSince + this.options.windowMs - Date.now())),
        () => this.scheduleWindow(Math.max(MIN_WINDOW_RETRY_MS, this.options.windowMs)),
      );
    }, delayMs);
    this.windowTimer.unref();
  }

  private resumed(): void {
    this.options.onResumed(`clicks written again after ${this.failures} failed attempts`);
    if (this.dropped > 0)
      this.options.onError(new Error(`${this.dropped} clicks were dropped while the click buffer was full`));
    this.failures = 0;
    this.dropped = 0;
  }
}
