import { ClickMeter } from '../../metrics/click-meter.ts';
import type { ClickColumns } from '../sink/click-columns.ts';
import type { ColumnsWriter } from '../sink/columnar-click-sink.ts';
import { ClickWriter } from '../writer/click-writer.ts';
import type { ClickWrites } from '../writer/click-writes.ts';
import { columnsMessage } from './worker-messages.ts';
import type { Storage } from '../../storage/connect.ts';
import { PgClickWrites } from '../postgres/pg-click-writes.ts';
import { SqliteClickWrites } from '../sqlite/sqlite-click-writes.ts';

const DEFAULT_WRITE_INTERVAL_MS = 1000;
const DEFAULT_MAX_BUFFERED = 1_000_000;

export interface InProcessWriterOptions {
  /** CLICK_FLUSH_INTERVAL_MS (a second by default). */
  writeIntervalMs?: number;
  /** STATS_FLUSH_INTERVAL_MS: 0 writes the window with every batch. */
  windowMs: number;
  /** CLICK_BUFFER_MAX (a million by default). */
  maxBuffered?: number;
  onError(error: unknown): void;
  onResumed?: (message: string) => void;
  meter?: ClickMeter;
  /** The lease the batches are recorded under (docs/design/clicks.md); none: not recorded. */
  owner?: string;
}

/**
 * The click writer in this process, behind what WorkerClickStore offers: for an in-memory SQLite
 * database, which exists only on the server's connection, so no thread could write it
 * (docs/design/clicks.md). The same ClickWriter as the thread's, over the same writes.
 */
export class InProcessClickWriter implements ColumnsWriter {
  private readonly writer: ClickWriter;
  private closed = false;
  private readonly onError: (error: unknown) => void;
  readonly meter: ClickMeter;

  /** The writer over the server's own connection: SQLite's (an in-memory database) or PostgreSQL's pool. */
  static over(storage: Storage, options: InProcessWriterOptions): InProcessClickWriter {
    const { sqlite } = storage;
    const make = sqlite
      ? () => new SqliteClickWrites(sqlite, { owner: options.owner, shared: true })
      : () => new PgClickWrites(storage.db, { owner: options.owner });
    const writes = onFirstWrite(make);
    return new InProcessClickWriter(writes, options, writes.prepare);
  }

  constructor(
    writes: ClickWrites,
    options: InProcessWriterOptions,
    private readonly prepare: () => void = () => {},
  ) {
    this.onError = (error) => options.onError(error);
    const meter = (this.meter = options.meter ?? new ClickMeter());
    this.writer = new ClickWriter(writes, {
      writeIntervalMs: options.writeIntervalMs ?? DEFAULT_WRITE_INTERVAL_MS,
      windowMs: options.windowMs,
      maxBuffered: options.maxBuffered ?? DEFAULT_MAX_BUFFERED,
      onError: (error) => options.onError(error),
      onResumed: (message) => options.onResumed?.(message),
      onWritten: (clicks, ms) => {
        meter.written += clicks;
        meter.flushes.observe(ms);
      },
      onDropped: (clicks) => (meter.dropped += clicks),
    });
  }

  /** Keeps the sink's clicks (ColumnarClickSink): the writer writes them once the oldest is due. */
  writeColumns(
    clicks: ClickColumns,
    counts: ReadonlyMap<number, number>,
    rotations: ReadonlyMap<number, number>,
    since: number,
  ): void {
    if (this.closed) {
      this.meter.dropped += clicks.count;
      this.onError(new Error(`${clicks.count} clicks handed to the click writer after it closed: not written`));
      return;
    }
    this.writer.add(columnsMessage(clicks, counts, rotations, since).message);
  }

  /** Rows summed in the window and not yet written. */
  get windowRows(): number {
    return this.writer.windowRows;
  }

  /** Prepares the writes now, rather than at the first write (a server does so once migrated). */
  async open(): Promise<void> {
    this.prepare();
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

/**
 * Writes made when opened or at the first write, not before: the server builds its writer
 * before its migrations have made the tables that SQLite's statements are prepared against.
 */
function onFirstWrite(make: () => ClickWrites): ClickWrites & { prepare: () => void } {
  let writes: ClickWrites | null = null;
  const made = () => (writes ??= make());
  return {
    writeRows: (batch) => made().writeRows(batch),
    committed: (batch, since) => made().committed(batch, since),
    segmentWritten: (id) => made().segmentWritten(id),
    writeWindow: (window, totals, pending) => made().writeWindow(window, totals, pending),
    close: () => writes?.close() ?? Promise.resolve(),
    prepare: () => void made(),
  };
}
