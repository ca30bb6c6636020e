import { Worker } from 'node:worker_threads';
import type { ClickColumns } from '../sink/click-columns.ts';
import type { ColumnsWriter } from '../sink/columnar-click-sink.ts';
import { columnsMessage, type WriterData, type WriterMessage, type WriterReply } from './worker-messages.ts';
import { ClickMeter } from '../../metrics/click-meter.ts';
import { threadEntry, threadExecArgv } from '../../shared/thread-entry.ts';

// Longer than a thread's start on a loaded machine (modules, a connection); PostgreSQL's connect
// timeout ends a hanging first connection before this.
const READY_WAIT_MS = 10_000;

export interface WriterHooks {
  /**
   * The thread failed (the clicks it held and had not written are lost with it), or it tells of
   * a failed write (retried there).
   */
  onError?: (error: unknown) => void;
  /** Where the thread's writes and drops are counted (a meter of its own by default). */
  meter?: ClickMeter;
  /**
   * Told when the thread starts and when it has stopped (SQLite's connection checkpoints the WAL meanwhile,
   * docs/design/clicks.md).
   */
  onRunning?: (running: boolean) => void;
  /** The thread writes again after failed attempts. */
  onResumed?: (message: string) => void;
}

/**
 * Hands the sink's clicks to the writer thread (click-writer-worker.ts), which has a database
 * connection of its own.
 * Started by open() (a server, as it starts) or by the first batch; processes that never record
 * a click (the CLI) never start it.
 */
export class WorkerClickStore implements ColumnsWriter {
  private worker: Worker | null = null;
  /** close() has run: no thread starts again, and what is handed over after is dropped and told. */
  private closed = false;
  private nextId = 1;
  /** Settles when the current thread has told it is ready, or is gone. */
  private ready: Promise<void> = Promise.resolve();
  private readonly waiting = new Map<number, { resolve(): void; reject(e: Error): void }>();

  private readonly onError: (error: unknown) => void;
  private readonly onRunning: (running: boolean) => void;
  private readonly onResumed: (message: string) => void;
  /** Where the thread's writes (and drops) are counted; the sink in front counts what it records. */
  readonly meter: ClickMeter;

  constructor(
    private readonly data: WriterData,
    hooks: WriterHooks = {},
  ) {
    this.onError = hooks.onError ?? (() => {});
    this.onRunning = hooks.onRunning ?? (() => {});
    this.onResumed = hooks.onResumed ?? (() => {});
    this.meter = hooks.meter ?? new ClickMeter();
  }

  /**
   * Hands clicks already in columns (ColumnarClickSink) to the thread without waiting for an
   * answer: the thread may be busy in a write for a while, and clicks waiting here for its answer
   * would pile up in the redirect's heap. The columns are moved, not copied. Messages are
   * delivered in order, so a later settle() answers only after these clicks are written.
   */
  writeColumns(
    clicks: ClickColumns,
    counts: ReadonlyMap<number, number>,
    rotations: ReadonlyMap<number, number>,
    since: number,
  ): void {
    if (this.closed) {
      // The hand-off cannot fail (ColumnarClickSink), so the loss is counted and told here.
      this.meter.dropped += clicks.count;
      this.onError(new Error(`${clicks.count} clicks handed to the click writer after it closed: not written`));
      return;
    }
    const { message, transfer } = columnsMessage(clicks, counts, rotations, since);
    this.start().postMessage(message, transfer);
  }

  /**
   * Starts the thread now rather than with the first batch, and resolves once it can write (its
   * modules loaded, its connection open), once it has failed, or after READY_WAIT_MS. A server
   * does so before it listens: clicks of visits answered while the thread started only queued,
   * and a `kill -9` in the first second lost several intervals of them (docs/design/clicks.md).
   */
  open(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.start();
    return this.ready;
  }

  /** Writes everything handed over so far, rollups and counters included (SQLite's thread holds those back). */
  settle(): Promise<void> {
    const worker = this.worker;
    if (!worker) return Promise.resolve();
    const id = this.nextId++;
    return this.ask(worker, id, { kind: 'settle', id });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.postMessage({ kind: 'close' } satisfies WriterMessage);
    });
  }

  private ask(worker: Worker, id: number, message: WriterMessage): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage(message);
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const entry = threadEntry('click-writer-worker', import.meta.url);
    const worker = new Worker(entry, {
      workerData: this.data,
      // So `npm run bench -- --cpu-prof` sees this thread too.
      execArgv: threadExecArgv(),
      // What it holds lives a second or more (it waits to be written), so a large young
      // generation only delays promotion while costing resident memory (docs/design/clicks.md).
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    let isReady!: () => void;
    this.ready = new Promise<void>((resolve) => {
      isReady = resolve;
      // A thread that neither answers nor fails (a PostgreSQL host that drops packets) must not hold a start for long.
      setTimeout(resolve, READY_WAIT_MS).unref();
    });
    worker.on('message', (reply: WriterReply) => {
      if ('kind' in reply && reply.kind === 'ready') return isReady();
      if ('kind' in reply) return this.told(reply);
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if (reply.ok) waiter.resolve();
      else waiter.reject(new Error(reply.error));
    });
    let failed = false;
    worker.on('error', (error) => {
      failed = true;
      this.onError(new Error('the click writer thread failed; clicks it had not written are lost', { cause: error }));
      this.failAll(error);
      isReady();
    });
    worker.on('exit', (code) => {
      // Not asked to stop (close() lets go of it first) and no 'error' told it already.
      if (this.worker === worker && !failed) {
        this.onError(new Error(`the click writer thread exited (code ${code}); clicks it had not written are lost`));
      }
      if (this.worker === worker) this.worker = null;
      this.onRunning(false);
      this.failAll(new Error('click writer thread stopped'));
      isReady();
    });
    this.worker = worker;
    this.onRunning(true);
    return worker;
  }

  /** What the thread tells unasked. */
  private told(reply: Exclude<WriterReply, { id: number } | { kind: 'ready' }>): void {
    switch (reply.kind) {
      case 'written':
        this.meter.written += reply.clicks;
        this.meter.flushes.observe(reply.ms);
        return;
      case 'dropped':
        this.meter.dropped += reply.clicks;
        return;
      case 'spooled':
        this.meter.spooled += reply.clicks;
        return;
      case 'error':
        return this.onError(new Error(reply.message));
      case 'resumed':
        return this.onResumed(reply.message);
    }
  }

  /** Whoever waits on the thread is told it is gone. */
  private failAll(error: Error): void {
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}
