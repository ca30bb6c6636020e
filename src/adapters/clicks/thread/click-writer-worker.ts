/**
 * The click writer thread, for either engine: a connection of its own and a ClickWriter over
 * that engine's writes (docs/design/clicks.md). SQLite's writes would block the redirect's event loop
 * (better-sqlite3 is synchronous; WAL lets the main thread keep reading meanwhile), and
 * PostgreSQL's batches, rollup window and statements took the redirect's thread between visits
 * (docs/design/clicks.md). "batch" hands clicks over (in columns); "settle" writes everything now
 * and answers; "close" does so, with retries, and ends. It tells the main thread it is ready once
 * its connection is open (PostgreSQL's first connection made or failed).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ClickWriter } from '../writer/click-writer.ts';
import { openClickWrites } from './open-click-writes.ts';
import { ClickSpool } from '../spool/click-spool.ts';
import type { WriterData, WriterMessage, WriterReply } from './worker-messages.ts';

const data = workerData as WriterData;
const port = parentPort!;
const tell = (reply: WriterReply) => port.postMessage(reply);

const writes = await openClickWrites(data);
const writer = new ClickWriter(writes, {
  writeIntervalMs: data.writeIntervalMs,
  windowMs: data.rollupIntervalMs,
  maxBuffered: data.maxBuffered,
  onError: (error) => tell({ kind: 'error', message: describe(error) }),
  onResumed: (message) => tell({ kind: 'resumed', message }),
  onWritten: (clicks, ms) => tell({ kind: 'written', clicks, ms }),
  onDropped: (clicks) => tell({ kind: 'dropped', clicks }),
  spool: openSpool(data.spoolDir),
  onSpooled: (clicks) => tell({ kind: 'spooled', clicks }),
});

port.on('message', (message: WriterMessage) => {
  switch (message.kind) {
    case 'batch':
      return writer.add(message);
    case 'settle':
      writer.settle().then(
        () => tell({ id: message.id, ok: true }),
        (error: unknown) => tell({ id: message.id, ok: false, error: describe(error) }),
      );
      return;
    case 'close':
      void writer
        .close()
        .catch((error: unknown) => tell({ kind: 'error', message: describe(error) }))
        .finally(() => port.close());
  }
});

tell({ kind: 'ready' });

/** The spool, or none if its directory cannot be read: clicks past the buffer are then dropped, as without one. */
function openSpool(dir: string | undefined): ClickSpool | null {
  if (dir === undefined) return null;
  try {
    return new ClickSpool(dir);
  } catch (error) {
    tell({ kind: 'error', message: `click spool off: ${describe(error)}` });
    return null;
  }
}

/**
 * An error as one line for the main thread's log: its message, its code (a refused connection
 * is an AggregateError with an empty message and a code) and its causes and inner errors.
 */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const inner = error instanceof AggregateError ? error.errors.map(describe).join('; ') : '';
  const head = [error.message, typeof code === 'string' ? `(${code})` : '', inner ? `[${inner}]` : '']
    .filter(Boolean)
    .join(' ');
  return error.cause === undefined ? head : `${head}: ${describe(error.cause)}`;
}
