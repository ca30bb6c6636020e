import type { Click } from '../../core/clicks/click.ts';
import type { ClickSink, ClickStore } from '../../core/clicks/ports.ts';
import { toBatch } from '../../core/clicks/batch.ts';
import { ClickMeter } from '../metrics/click-meter.ts';
import { writeDueIn } from './write-due.ts';

export interface BatchingOptions {
  /** Write a click within this long of its record (write-due.ts), while the database answers. */
  intervalMs: number;
  /** Write as soon as this many are buffered. */
  maxBatch: number;
  /**
   * Clicks held at most, written or not (CLICK_BUFFER_MAX). While the database is away the
   * buffer grows; past this many, newer clicks are dropped and counted. Default: no bound.
   */
  maxBuffered?: number | undefined;
  /** A failed write (once per outage, not per retry), and clicks dropped. */
  onError(error: unknown): void;
  /** Writes resumed after an outage. */
  onResumed?(message: string): void;
  /** Where clicks recorded, written and dropped are counted (GET /metrics); a meter of its own by default. */
  meter?: ClickMeter | undefined;
}

interface Entry {
  click: Click;
  rotation?: number | undefined;
  /** When it was recorded (ms since the epoch): its write is due an interval after. */
  since: number;
}

// Retries wait twice as long each time, up to this: an absent database is not asked many times
// a second, and clicks still follow within seconds once it is back.
const MAX_RETRY_DELAY_MS = 5000;

// A backlog (visits faster than the database writes, or the database back after an outage) is
// written up to this many batches at once: a link's counter and its rollup rows are then written
// once for more of its clicks, so a batch costs less a click and the backlog shrinks.
const BACKLOG_BATCHES = 10;

/**
 * Keeps the redirect free of database writes: a visit only appends to an array. Batches are
 * written one at a time; a failed batch goes back to the front of the queue and is retried
 * until the database is back, so nothing is lost while it is away — up to maxBuffered clicks,
 * past which newer clicks are dropped (the older ones are already waiting, in order). close()
 * writes everything it can before it resolves.
 */
export class BatchingClickSink implements ClickSink {
  private buffer: Entry[] = [];
  private writing: Promise<void> | null = null;
  private inFlight = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Failed writes in a row: non-zero while the database is away. */
  private failures = 0;
  private droppedNow = 0;
  readonly meter: ClickMeter;

  constructor(
    private readonly store: ClickStore,
    private readonly options: BatchingOptions,
  ) {
    this.meter = options.meter ?? new ClickMeter();
  }

  /** `since`: when the click was recorded, if before now (a writer thread's clicks were recorded on the main thread). */
  record(click: Click, rotation?: number, since: number = Date.now()): void {
    this.meter.recorded++;
    if (this.buffer.length + this.inFlight >= (this.options.maxBuffered ?? Infinity)) {
      this.drop();
      return;
    }
    this.buffer.push({ click, rotation, since });
    // While writes fail, only the retry timer writes: a full buffer must not send a write per visit.
    if (this.failures > 0) return;
    if (this.buffer.length >= this.options.maxBatch) this.kick(0);
    else if (this.timer === null) this.kick(this.dueIn());
  }

  /** Until the oldest buffered click's write is due: timed from its record, not from the last write. */
  private dueIn(): number {
    return writeDueIn(this.buffer[0]?.since ?? Date.now(), this.options.intervalMs, Date.now());
  }

  /** Clicks recorded but not yet written. */
  get pending(): number {
    return this.buffer.length + this.inFlight;
  }

  /** Clicks dropped since start because the buffer was full. */
  get dropped(): number {
    return this.meter.dropped;
  }

  /** Everything recorded so far is written when this resolves, statistics rollups included. */
  async flush(): Promise<void> {
    while (this.writing || this.buffer.length > 0) {
      if (this.writing) await this.writing;
      else await this.writeOnce();
    }
    await this.store.settle?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // A database that stays away would hold the stop forever; flush reports and retries.
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await this.flush();
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
      }
    }
    // The database stayed away through every retry: say exactly what is lost rather than nothing.
    if (this.buffer.length > 0) {
      this.options.onError(new Error(`${this.buffer.length} buffered clicks could not be written before the stop`));
    }
  }

  private drop(): void {
    this.meter.dropped++;
    if (this.droppedNow++ === 0) {
      this.options.onError(new Error(`click buffer full (${this.options.maxBuffered} clicks waiting for the database): newer clicks are dropped until it is back`));
    }
  }

  private kick(delayMs: number): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      // Failures are counted and reported in writeOnce; the retry is already scheduled there.
      if (!this.writing) this.writeOnce().catch(() => {});
    }, delayMs);
    this.timer.unref();
  }

  private async writeOnce(): Promise<void> {
    const entries = this.buffer.splice(0, this.batchSize());
    if (entries.length === 0) return;
    this.inFlight = entries.length;
    const started = performance.now();
    this.writing = this.store.writeBatch(toBatch(entries));
    try {
      await this.writing;
      this.meter.written += entries.length;
      this.meter.flushes.observe(performance.now() - started);
    } catch (error) {
      this.buffer.unshift(...entries);
      if (this.failures++ === 0) {
        this.options.onError(new Error(`clicks not written; ${this.buffer.length} kept and retried until the database answers`, { cause: error }));
      }
      if (!this.closed) this.kick(Math.min(Math.min(this.options.intervalMs, 1000) * 2 ** this.failures, MAX_RETRY_DELAY_MS));
      throw error;
    } finally {
      this.writing = null;
      this.inFlight = 0;
    }
    if (this.failures > 0) this.resumed();
    if (this.buffer.length > 0) this.kick(this.buffer.length >= this.options.maxBatch ? 0 : this.dueIn());
  }

  private batchSize(): number {
    const { maxBatch } = this.options;
    return this.buffer.length > 2 * maxBatch ? Math.min(this.buffer.length, maxBatch * BACKLOG_BATCHES) : maxBatch;
  }

  private resumed(): void {
    const dropped = this.droppedNow;
    this.options.onResumed?.(`clicks written again after ${this.failures} failed attempts`);
    if (dropped > 0) this.options.onError(new Error(`${dropped} clicks were dropped while the click buffer was full`));
    this.failures = 0;
    this.droppedNow = 0;
  }
}
