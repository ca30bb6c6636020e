import type { Click } from '../../../core/clicks/click.ts';
import type { ClickSink } from '../../../core/clicks/ports.ts';
import { tallyClick } from '../../../core/clicks/batch.ts';
import { ClickColumnsBuilder, type ClickColumns } from './click-columns.ts';
import { ClickMeter } from '../../metrics/click-meter.ts';

/** Where the columns go: a writer thread (WorkerClickStore). */
export interface ColumnsWriter {
  /** `since`: when the first of these clicks was recorded (ms since the epoch); the thread writes them an interval after it. */
  writeColumns(
    clicks: ClickColumns,
    counts: ReadonlyMap<number, number>,
    rotations: ReadonlyMap<number, number>,
    since: number,
  ): void;
  /** Resolves once everything handed over before is written, rollups included. */
  settle(): Promise<void>;
}

export interface ColumnarSinkOptions {
  /** Hand the clicks over at least this often while they arrive. */
  intervalMs: number;
  /** Hand them over as soon as this many are recorded. */
  maxBatch: number;
  /** Where recorded clicks are counted (the writer counts what it writes); a meter of its own by default. */
  meter?: ClickMeter | undefined;
}

/**
 * The click sink, in front of the click writer (the writer thread, or the same writer in process
 * for an in-memory database, docs/design/clicks.md). A visit's click is
 * encoded into columns at once (ClickColumnsBuilder) and its counters summed, so the redirect
 * holds no click object after the visit: buffered as objects until the hand-off, clicks
 * survived a scavenge or two and were promoted, and their garbage made the main thread's full
 * collections frequent and long (the p99 of the redirect). The hand-off cannot fail (the thread
 * keeps what it could not write yet), so nothing here retries: the writer does (ClickWriter).
 */
export class ColumnarClickSink implements ClickSink {
  private readonly builder: ClickColumnsBuilder;
  private counts = new Map<number, number>();
  private rotations = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  /** When the first click not yet handed over was recorded. */
  private since = 0;
  readonly meter: ClickMeter;

  constructor(
    private readonly writer: ColumnsWriter,
    private readonly options: ColumnarSinkOptions,
  ) {
    this.builder = new ClickColumnsBuilder(options.maxBatch);
    this.meter = options.meter ?? new ClickMeter();
  }

  record(click: Click, rotation?: number): void {
    this.meter.recorded++;
    if (this.builder.count === 0) this.since = Date.now();
    this.builder.add(click);
    tallyClick(this.counts, this.rotations, click, rotation);
    if (this.builder.count >= this.options.maxBatch) this.handOver();
    else if (this.timer === null) {
      this.timer = setTimeout(this.handOver, this.options.intervalMs);
      this.timer.unref();
    }
  }

  /** Clicks recorded but not yet handed over. */
  get pending(): number {
    return this.builder.count;
  }

  async flush(): Promise<void> {
    this.handOver();
    await this.writer.settle();
  }

  async close(): Promise<void> {
    await this.flush();
  }

  private readonly handOver = (): void => {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.builder.count === 0) return;
    this.writer.writeColumns(this.builder.build(), this.counts, this.rotations, this.since);
    this.counts = new Map();
    this.rotations = new Map();
  };
}
