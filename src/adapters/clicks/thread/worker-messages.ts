import type { Click } from '../../../core/clicks/click.ts';
import { LinkTotals } from '../window/link-totals.ts';
import { ClickColumnsView, transferablesOf, type ClickColumns } from '../sink/click-columns.ts';

/** A batch as it crosses to the writer thread (clicks in columns, Maps as entry lists); not answered. */
export interface BatchMessage {
  kind: 'batch';
  clicks: ClickColumns;
  counts: Array<[number, number]>;
  rotations: Array<[number, number]>;
  /** When the oldest of these clicks was recorded (ms since the epoch): its write is due an interval after (write-due.ts). */
  since: number;
}

/** Write what the thread holds back (the rollup window), then answer. */
export interface SettleMessage {
  kind: 'settle';
  id: number;
}

/** Settle, close the connection and end the thread. */
export interface CloseMessage {
  kind: 'close';
}

export type WriterMessage = BatchMessage | SettleMessage | CloseMessage;

/** A settle's answer. */
export type SettleReply = { id: number; ok: true } | { id: number; ok: false; error: string };

/** Told after each write of the thread, unasked (GET /metrics): the clicks written, and how long it took. */
export interface WrittenReport {
  kind: 'written';
  clicks: number;
  ms: number;
}

/** Told by the writer thread, unasked: clicks it gave up (its buffer was full while the database was away). */
export interface DroppedReport {
  kind: 'dropped';
  clicks: number;
}

/**
 * Told by the writer thread, unasked: a failure (`error`: once per outage, or clicks
 * lost at the stop) or the writes resuming (`resumed`), for the main thread's log.
 */
export interface LogReport {
  kind: 'error' | 'resumed';
  message: string;
}

/**
 * Told once by a writer thread, unasked, when it can write: its modules loaded and its connection
 * open (PostgreSQL's: its first connection tried). A server listens only after it, so no
 * visit is answered while clicks could only queue up (docs/design/clicks.md).
 */
export interface ReadyReport {
  kind: 'ready';
}

/** Told by the writer thread, unasked: clicks past its buffer kept in the spool on disk (docs/design/clicks.md). */
export interface SpooledReport {
  kind: 'spooled';
  clicks: number;
}

export type WriterReply = SettleReply | WrittenReport | DroppedReport | SpooledReport | LogReport | ReadyReport;

/** The click writer thread's settings (click-writer-worker.ts). */
export interface WriterData {
  engine: 'sqlite' | 'postgres';
  databaseUrl: string;
  /** PostgreSQL: the schema the server works in (tests give each run its own). */
  schema?: string | undefined;
  /** CLICK_FLUSH_INTERVAL_MS: a click's row is written about this long after it was recorded. */
  writeIntervalMs: number;
  /** STATS_FLUSH_INTERVAL_MS: how often the window (rollups and link counters) is written (0: with every batch). */
  rollupIntervalMs: number;
  /** CLICK_BUFFER_MAX: clicks kept at most while the database is away. */
  maxBuffered: number;
  /** The spool's directory (beside SNAPSHOT_PATH); none: clicks past the buffer are dropped. */
  spoolDir?: string | undefined;
  /** The lease the thread's batches are recorded under (docs/design/clicks.md); none: not recorded. */
  owner?: string | undefined;
}

/** A hand-over of clicks already in columns (ColumnarClickSink), and the buffers postMessage should move rather than copy. */
export function columnsMessage(
  clicks: ClickColumns,
  counts: ReadonlyMap<number, number>,
  rotations: ReadonlyMap<number, number>,
  since: number,
): { message: BatchMessage; transfer: ArrayBuffer[] } {
  return {
    message: { kind: 'batch', clicks, counts: [...counts], rotations: [...rotations], since },
    transfer: transferablesOf(clicks),
  };
}

/** A batch the writer thread writes: its clicks read in place (ClickColumnsView), never kept. */
export interface WriterBatch {
  clicks: Iterable<Click>;
  /** The distinct links of the clicks. */
  linkIds: Set<number>;
  counts: Map<number, number>;
  rotations: Map<number, number>;
  /** A spool segment's id (click-spool.ts): marked written in the rows' transaction (click_spool_segments). */
  segment?: string;
}

/** A batch of waiting clicks, with when its oldest was recorded (ms since the epoch). */
export interface WaitingBatch extends WriterBatch {
  since: number;
}

/**
 * What the writer thread has been handed and not yet written: the clicks' columns, in order,
 * and their links' counters, summed as each message arrives. The messages themselves are not
 * kept: their counters (arrays of pairs, thousands a message) would otherwise wait a second
 * for the write, long enough to be promoted, and make the thread's full collections frequent.
 */
export class WaitingClicks {
  private columns: ClickColumns[] = [];
  private totals = new LinkTotals();
  private clicks = 0;
  private oldest: number | null = null;

  add(message: BatchMessage): void {
    if (message.clicks.count > 0 && (this.oldest === null || message.since < this.oldest)) this.oldest = message.since;
    this.columns.push(message.clicks);
    this.clicks += message.clicks.count;
    this.totals.add(message);
  }

  /** Clicks waiting. */
  get count(): number {
    return this.clicks;
  }

  /** When the oldest click waiting was recorded (ms since the epoch); null: none waits. */
  get since(): number | null {
    return this.oldest;
  }

  /**
   * Everything waiting as one batch, in order (counts added up, the latest rotation kept); the
   * waiting list starts empty. A batch whose write failed is never given back: its transaction
   * may have committed, and ClickWriter retries it alone (docs/design/clicks.md).
   */
  take(): WaitingBatch {
    const clicks = new ClickColumnsView(this.columns);
    const { counts, rotations } = this.totals.drain();
    const since = this.oldest ?? Date.now();
    this.columns = [];
    this.clicks = 0;
    this.oldest = null;
    return { clicks, linkIds: clicks.linkIds(), counts, rotations, since };
  }
}
