/**
 * The SQLite reader thread (docs/design/event-loop.md): a read-only connection of its own to the
 * server's database file, which runs the statements that may go through any number of rows
 * (statements of `storage.reads`), so that their time is spent here and never on the thread
 * that serves requests. WAL lets it read while the server's connection and the click writer's
 * write. A statement's rows are handed over a chunk at a time, the next when the main thread
 * asks for it: each message is one short piece of work there, however long the result.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { LOCK_WAIT_MS } from '../sqlite-driver.ts';
import { defineSqliteFunctions } from '../sqlite-functions.ts';
import { cachingStatements } from '../statement-cache.ts';
import type { ReaderData, ReaderReply, ReaderRequest } from './reader-messages.ts';

const { path, chunkRows } = workerData as ReaderData;
const port = parentPort!;
const tell = (reply: ReaderReply) => port.postMessage(reply);

const sqlite = new SQLite(path, { readonly: true, fileMustExist: true });
// A reader of a WAL database waits only while another connection recovers it: here, not on the server's thread.
sqlite.pragma(`busy_timeout = ${LOCK_WAIT_MS}`);
defineSqliteFunctions(sqlite);
const statements = cachingStatements(sqlite);
/** Rows of answered statements not yet all handed over, by the statement's id. */
const unsent = new Map<number, { rows: unknown[]; next: number }>();

port.on('message', (message: ReaderRequest) => {
  switch (message.kind) {
    case 'query':
      return run(message.id, message.sql, message.parameters);
    case 'more':
      return sendChunk(message.id);
    case 'drop':
      unsent.delete(message.id);
      return;
    case 'close':
      unsent.clear();
      statements.close();
      port.close();
  }
});

function run(id: number, sql: string, parameters: readonly unknown[]): void {
  try {
    const statement = statements.prepare(sql);
    if (!statement.reader)
      throw Object.assign(new Error('the reader thread runs statements that return rows, nothing else'), {
        code: 'LINKPIX_NOT_A_READ',
      });
    unsent.set(id, { rows: statement.all(parameters), next: 0 });
  } catch (error) {
    const { message, code } = error as { message?: unknown; code?: unknown };
    return tell({ id, error: { message: String(message ?? error), ...(typeof code === 'string' ? { code } : {}) } });
  }
  sendChunk(id);
}

function sendChunk(id: number): void {
  const result = unsent.get(id);
  if (result === undefined) return;
  const { rows, next } = result;
  const done = next + chunkRows >= rows.length;
  if (done) unsent.delete(id);
  else result.next = next + chunkRows;
  tell({ id, rows: next === 0 && done ? rows : rows.slice(next, next + chunkRows), done });
}
