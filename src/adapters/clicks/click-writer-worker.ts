/**
 * A worker thread that owns a second SQLite connection and writes clicks, so that the time
 * SQLite spends in a write never stops the redirect's event loop (better-sqlite3 is
 * synchronous). WAL lets the main thread keep reading meanwhile.
 *
 * The main thread hands clicks over often (they leave its heap young); this thread keeps them
 * and writes them in one transaction once the oldest has waited about `writeIntervalMs` since it
 * was recorded (write-due.ts; sooner when very many wait), and the window (rollups, and the
 * links' clicks and rotation positions) every `rollupIntervalMs`. A write that fails keeps its
 * clicks for the next one, an interval later.
 * "settle" writes everything now and answers when it is written; "close" does so and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite, sqlitePath } from '../storage/connect.ts';
import { SqliteClickWriter } from './sqlite-click-writer.ts';
import { WaitingClicks, type WriterData, type WriterMessage, type WriterReply } from './worker-messages.ts';
import { writeDueIn } from './write-due.ts';

// Seconds of heavy traffic over many links, a minute or more of ordinary traffic, in a bounded
// heap (its size: docs/performance.md).
const MAX_WINDOW_ROWS = 200_000;
// Written sooner than the interval only past this many: a transaction's cost is mostly per link
// and per page it touches, so fewer, larger ones write each click for less (docs/performance.md).
const WRITE_EARLY_AT = 50_000;
// A window this small is written with the rows, not held for the interval: light traffic gets
// its statistics and counters within a second for next to nothing, while heavy traffic, whose
// window quickly outgrows it, still sums many clicks into each row it writes.
const PROMPT_WINDOW_ROWS = 1_000;

const data = workerData as WriterData;

const db = openSqlite(sqlitePath(data.databaseUrl));
const port = parentPort!;
const report = (error: unknown) => console.error('linkpix: click writer:', error);
const writer = new SqliteClickWriter(db, {
  maxWindowRows: data.rollupIntervalMs === 0 ? 1 : MAX_WINDOW_ROWS,
  onError: report,
  ...(data.owner === undefined ? {} : { owner: data.owner }),
});

// Kept as they came, columns in typed arrays, and made into click objects only to be written:
// objects held for the write interval would outlive the young generation and be promoted,
// garbage for the next full collection to find.
const waiting = new WaitingClicks();

/** One transaction for everything handed over so far; on failure it all stays for the next try. */
function writeWaiting(): void {
  const clicks = waiting.count;
  if (clicks === 0) return;
  const started = performance.now();
  const batch = waiting.take();
  try {
    writer.writeBatch(batch);
  } catch (error) {
    waiting.putBack(batch);
    throw error;
  }
  if (writer.windowRows < PROMPT_WINDOW_ROWS) writer.flushWindow();
  port.postMessage({ kind: 'written', clicks, ms: performance.now() - started } satisfies WriterReply);
}

let checkpointFailing = false;
/**
 * While this thread runs, the server's commits leave the WAL's checkpoints to this connection
 * (docs/adr/0041), whose commits make them; with no click to write it commits nothing, so it
 * copies what the server wrote meanwhile (an import, the API) here, without waiting for anyone
 * (PASSIVE). With nothing new in the WAL that is a look at its header.
 */
function checkpointIdle(): void {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    checkpointFailing = false;
  } catch (error) {
    // A checkpoint that fails (a full disk) is told once until one succeeds, not on every tick;
    // the clicks' own commits do not depend on it.
    if (!checkpointFailing) report(new Error('the idle WAL checkpoint failed; retried on every idle tick', { cause: error }));
    checkpointFailing = true;
  }
}

function settle(): void {
  writeWaiting();
  writer.flushWindow();
}

const every = (ms: number, work: () => void) =>
  setInterval(() => {
    try {
      work();
    } catch (error) {
      report(error); // kept; the next tick or a settle tries again
    }
  }, ms);
const timers = [every(data.writeIntervalMs, () => (waiting.count === 0 ? checkpointIdle() : undefined))];
if (data.rollupIntervalMs > 0) timers.push(every(data.rollupIntervalMs, () => writer.flushWindow()));

/** The write of what waits, when the oldest of it is due; null while nothing waits or it is under way. */
let due: NodeJS.Timeout | null = null;
let closing = false;

function writeWhenDue(): void {
  const since = waiting.since;
  if (due !== null || since === null || closing) return;
  due = setTimeout(writeDue, writeDueIn(since, data.writeIntervalMs, Date.now()));
}

function writeDue(): void {
  due = null;
  try {
    writeWaiting();
  } catch (error) {
    report(error); // kept; tried again an interval later (or by a settle)
    due = setTimeout(writeDue, data.writeIntervalMs);
    return;
  }
  writeWhenDue();
}

function answer(id: number, work: () => void): void {
  try {
    work();
    port.postMessage({ id, ok: true } satisfies WriterReply);
  } catch (error) {
    port.postMessage({ id, ok: false, error: String(error) } satisfies WriterReply);
  }
}

port.on('message', (message: WriterMessage) => {
  switch (message.kind) {
    case 'batch': {
      waiting.add(message);
      if (waiting.count < WRITE_EARLY_AT) return writeWhenDue();
      try {
        writeWaiting();
      } catch (error) {
        report(error); // the clicks are kept for the next attempt
      }
      return writeWhenDue();
    }
    case 'settle':
      return answer(message.id, settle);
    case 'close': {
      closing = true;
      for (const timer of timers) clearInterval(timer);
      if (due !== null) clearTimeout(due);
      try {
        settle();
      } catch (error) {
        report(new Error(`${waiting.count} clicks and a rollup window could not be written before the stop`, { cause: error }));
      }
      db.close();
      port.close();
    }
  }
});

// Modules loaded and the connection open: the server may listen (docs/adr/0063).
port.postMessage({ kind: 'ready' } satisfies WriterReply);
