/**
 * A worker thread that owns a second SQLite connection and writes click batches, so that the
 * seconds SQLite spends in a write never stop the redirect's event loop (better-sqlite3 is
 * synchronous). WAL lets the main thread keep reading meanwhile.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { connect } from '../storage/connect.ts';
import { SqlClickStore } from '../storage/stores/click-store.ts';
import { fromMessage, type BatchMessage, type WriterReply } from './worker-messages.ts';

const storage = connect(workerData.databaseUrl as string);
const store = new SqlClickStore(storage.db);
const port = parentPort!;

port.on('message', (message: BatchMessage | { close: true }) => {
  if ('close' in message) {
    void storage.close().then(() => port.close());
    return;
  }
  store.writeBatch(fromMessage(message))
    .then(() => port.postMessage({ id: message.id, ok: true } satisfies WriterReply))
    .catch((error: unknown) => port.postMessage({ id: message.id, ok: false, error: String(error) } satisfies WriterReply));
});
