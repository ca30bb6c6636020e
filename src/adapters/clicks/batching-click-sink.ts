import type { Click } from '../../core/clicks/click.ts';
import type { ClickSink, ClickStore } from '../../core/clicks/ports.ts';
import { toBatch } from '../../core/clicks/batch.ts';

export interface BatchingOptions {
  /** Write at least this often while clicks arrive. */
  intervalMs: number;
  /** Write as soon as this many are buffered. */
  maxBatch: number;
  onError(error: unknown): void;
}

interface Entry {
  click: Click;
  rotation?: number | undefined;
}

/**
 * Keeps the redirect free of database writes: a visit only appends to an array. Batches are
 * written one at a time; a failed batch goes back to the front of the queue, so nothing is lost
 * while the database is away, and close() writes everything before it resolves.
 */
export class BatchingClickSink implements ClickSink {
  private buffer: Entry[] = [];
  private writing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly store: ClickStore, private readonly options: BatchingOptions) {}

  record(click: Click, rotation?: number): void {
    this.buffer.push({ click, rotation });
    if (this.buffer.length >= this.options.maxBatch) this.kick(0);
    else if (this.timer === null) this.kick(this.options.intervalMs);
  }

  /** Clicks recorded but not yet written. */
  get pending(): number {
    return this.buffer.length;
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
      } catch (error) {
        this.options.onError(error);
        await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
      }
    }
    // The database stayed away through every retry: say exactly what is lost rather than nothing.
    if (this.buffer.length > 0) {
      this.options.onError(new Error(`${this.buffer.length} buffered clicks could not be written before the stop`));
    }
  }

  private kick(delayMs: number): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.writing) this.writeOnce().catch(this.options.onError);
    }, delayMs);
    this.timer.unref();
  }

  private async writeOnce(): Promise<void> {
    const entries = this.buffer.splice(0, this.options.maxBatch);
    if (entries.length === 0) return;
    this.writing = this.store.writeBatch(toBatch(entries));
    try {
      await this.writing;
    } catch (error) {
      this.buffer.unshift(...entries);
      if (!this.closed) this.kick(this.options.intervalMs * 4);
      throw error;
    } finally {
      this.writing = null;
    }
    if (this.buffer.length > 0) this.kick(this.buffer.length >= this.options.maxBatch ? 0 : this.options.intervalMs);
  }
}
