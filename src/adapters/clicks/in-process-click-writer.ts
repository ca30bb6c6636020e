import type { ClickBatch, ClickStore } from '../../core/clicks/ports.ts';
import { ClickMeter } from '../metrics/click-meter.ts';
import type { ClickColumns } from './click-columns.ts';
import { ClickWriter } from './click-writer.ts';
import type { ClickWrites } from './click-writes.ts';
import { columnsMessage, toMessage } from './worker-messages.ts';

export interface InProcessWriterOptions {
  writeIntervalMs: number;
  windowMs: number;
  maxBuffered: number;
  onError(error: unknown): void;
  onResumed?: (message: string) => void;
  meter?: ClickMeter;
}

/**
 * The click writer in this process, behind what WorkerClickStore offers: for an in-memory SQLite
 * database, which exists only on the server's connection, so no thread could write it
 * (docs/adr/0078). The same ClickWriter as the thread's, over the same writes.
 */
export class InProcessClickWriter implements ClickStore {
  private readonly writer: ClickWriter;
  private closed = false;
  private readonly onError: (error: unknown) => void;
  readonly meter: ClickMeter;

  constructor(writes: ClickWrites, options: InProcessWriterOptions) {
    this.onError = options.onError;
    const meter = (this.meter = options.meter ?? new ClickMeter());
    this.writer = new ClickWriter(writes, {
      writeIntervalMs: options.writeIntervalMs,
      windowMs: options.windowMs,
      maxBuffered: options.maxBuffered,
      onError: options.onError,
      onResumed: options.onResumed ?? (() => {}),
      onWritten: (clicks, ms) => {
        meter.written += clicks;
        meter.flushes.observe(ms);
      },
      onDropped: (clicks) => (meter.dropped += clicks),
    });
  }

  writeBatch(batch: ClickBatch): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${batch.clicks.length} clicks handed to the click writer after it closed`));
    this.writer.add(toMessage(batch).message);
    return Promise.resolve();
  }

  writeColumns(clicks: ClickColumns, counts: ReadonlyMap<number, number>, rotations: ReadonlyMap<number, number>, since: number = Date.now()): void {
    if (this.closed) {
      this.meter.dropped += clicks.count;
      this.onError(new Error(`${clicks.count} clicks handed to the click writer after it closed: not written`));
      return;
    }
    this.writer.add(columnsMessage(clicks, counts, rotations, since).message);
  }

  /** Nothing to start: the writer is ready at once. */
  open(): Promise<void> {
    return Promise.resolve();
  }

  settle(): Promise<void> {
    return this.writer.settle();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writer.close();
  }
}
