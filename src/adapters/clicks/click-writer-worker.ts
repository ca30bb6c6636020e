/**
 * A worker thread that owns a second SQLite connection and writes click batches, so that the
 * time SQLite spends in a write never stops the redirect's event loop (better-sqlite3 is
 * synchronous). WAL lets the main thread keep reading meanwhile.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite, sqlitePath } from '../storage/connect.ts';
import { SqliteClickWriter } from './sqlite-click-writer.ts';
import { fromMessage, type WriterData, type WriterMessage, type WriterReply } from './worker-messages.ts';

// Enough for minutes of heavy traffic over many links; held in memory, so bounded.
const MAX_WINDOW_ROWS = 200_000;

const data = workerData as WriterData;
const db = openSqlite(sqlitePath(data.databaseUrl));
const port = parentPort!;
const report = (error: unknown) => console.error('linkpix: click writer:', error);
const writer = new SqliteClickWriter(db, { maxWindowRows: data.rollupIntervalMs === 0 ? 1 : MAX_WINDOW_ROWS, onError: report });

const timer = data.rollupIntervalMs > 0 ? setInterval(() => {
  try {
    writer.flushRollups();
  } catch (error) {
    report(error); // kept in the window; the next tick or a settle tries again
  }
}, data.rollupIntervalMs) : null;

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
    case 'batch': return answer(message.id, () => writer.writeBatch(fromMessage(message)));
    case 'settle': return answer(message.id, () => writer.flushRollups());
    case 'close': {
      if (timer) clearInterval(timer);
      try {
        writer.flushRollups();
      } catch (error) {
        report(error);
      }
      db.close();
      port.close();
    }
  }
});
