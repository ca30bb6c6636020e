/**
 * A worker thread that writes PostgreSQL's clicks with a pool of its own, as SQLite's writer
 * thread does (click-writer-worker.ts): the clicks arrive in columns, and the batches waiting
 * for the database, the rollup window summed over STATS_FLUSH_INTERVAL_MS and every statement
 * built for them are this thread's work. On the main thread, that work ran between visits and
 * made the redirect's p99 (docs/adr/0042).
 *
 * Inside, the same sink and store as before (BatchingClickSink over SqlClickStore): batches of
 * CLICK_BATCH_SIZE at least every CLICK_FLUSH_INTERVAL_MS, kept and retried while the database
 * is away, up to CLICK_BUFFER_MAX. "settle" writes everything now and answers; "close" does so
 * with the sink's retries, closes the pool and ends. It tells the main thread it is ready once
 * its pool's first connection is made (or failed).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { sql } from 'kysely';
import type { Click } from '../../core/clicks/click.ts';
import { connect } from '../storage/connect.ts';
import { SqlClickStore } from '../storage/stores/click-store.ts';
import { BatchingClickSink } from './batching-click-sink.ts';
import { ClickColumnsView } from './click-columns.ts';
import type { BatchMessage, PgWriterData, WriterMessage, WriterReply } from './worker-messages.ts';

const data = workerData as PgWriterData;
const port = parentPort!;
const tell = (reply: WriterReply) => port.postMessage(reply);
const report = (error: unknown) => tell({ kind: 'error', message: describe(error) });
const resumed = (message: string) => tell({ kind: 'resumed', message });

// Two connections: a batch's transaction and a window's may run at once. The main thread's pool
// tells of the database's outages; this one's would say the same again.
const storage = connect(data.databaseUrl, { schema: data.schema, poolSize: 2, outageLog: () => {} });
const store = new SqlClickStore(storage.db, 'postgres', {
  windowMs: data.rollupIntervalMs,
  onError: report,
  onResumed: resumed,
  ...(data.owner ? { owner: data.owner } : {}),
});
const sink = new BatchingClickSink(
  {
    async writeBatch(batch) {
      const started = performance.now();
      await store.writeBatch(batch);
      tell({ kind: 'written', clicks: batch.clicks.length, ms: performance.now() - started });
    },
    settle: () => store.settle(),
  },
  {
    intervalMs: data.writeIntervalMs,
    maxBatch: data.maxBatch,
    maxBuffered: data.maxBuffered,
    onError: report,
    onResumed: resumed,
  },
);
let dropped = 0;

/** Each click of the message, a copy, with the link's latest rotation given with its last click there. */
function record(message: BatchMessage): void {
  const clicks: Click[] = Array.from(new ClickColumnsView([message.clicks]), (c) => ({ ...c }));
  const last = new Map<number, number>();
  clicks.forEach((c, i) => last.set(c.linkId, i));
  const rotations = new Map(message.rotations);
  clicks.forEach((c, i) => sink.record(c, last.get(c.linkId) === i ? rotations.get(c.linkId) : undefined, message.since));
  if (sink.dropped > dropped) {
    tell({ kind: 'dropped', clicks: sink.dropped - dropped });
    dropped = sink.dropped;
  }
}

port.on('message', (message: WriterMessage) => {
  switch (message.kind) {
    case 'batch':
      return record(message);
    case 'settle':
      sink.flush().then(
        () => tell({ id: message.id, ok: true }),
        (error: unknown) => tell({ id: message.id, ok: false, error: describe(error) }),
      );
      return;
    case 'close':
      // The sink retries while the database is away and reports what it could not write.
      void sink
        .close()
        .then(() => storage.close())
        .catch(report)
        .finally(() => port.close());
  }
});

// The pool's first connection before the first batch, which then need not wait for it; ready
// whether or not the database answers (the sink keeps the clicks while it is away).
sql`select 1`
  .execute(storage.db)
  .catch(() => undefined)
  .finally(() => tell({ kind: 'ready' }));

/**
 * An error as one line for the main thread's log: its message, its code (a refused connection
 * is an AggregateError with an empty message and a code) and its causes and inner errors.
 */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const inner = error instanceof AggregateError ? error.errors.map(describe).join('; ') : '';
  const head = [error.message, typeof code === 'string' ? `(${code})` : '', inner ? `[${inner}]` : ''].filter(Boolean).join(' ');
  return error.cause === undefined ? head : `${head}: ${describe(error.cause)}`;
}
