import { Worker } from 'node:worker_threads';
import {
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { UnavailableError } from '../../../core/shared/errors.ts';
import { threadEntry, threadExecArgv } from '../../shared/thread-entry.ts';
import { CHUNK_ROWS } from '../chunk-rows.ts';
import type { ReaderData, ReaderReply, ReaderRequest } from './reader-messages.ts';

/** The dependency a refused read names (UnavailableError, 503 with Retry-After): the reader thread and its queue. */
export const SQLITE_READER = 'database reader';
/**
 * Statements sent to the thread and not yet answered at most: past it a read is refused at
 * once, never queued without bound behind the long ones (docs/design/event-loop.md).
 */
export const READS_WAITING_MAX = 32;

/**
 * Kysely's dialect for the reader thread of a SQLite file (sqlite-reader-thread.ts,
 * docs/design/event-loop.md): SQLite's SQL, compiled on the main thread as for the server's
 * connection, run on the thread.
 */
export class SqliteReaderDialect implements Dialect {
  constructor(private readonly path: string) {}

  createAdapter() {
    return new SqliteAdapter();
  }

  createDriver(): Driver {
    return new SqliteReaderDriver(this.path);
  }

  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's own signature
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/** The next chunk of a stream, once the thread sends it. */
function nextChunk() {
  let resolve!: (chunk: { rows: unknown[]; done: boolean }) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<{ rows: unknown[]; done: boolean }>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  // A stream abandoned before its next chunk is read must not leave a rejection unhandled.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/** A statement sent to the thread: told each chunk of its rows as it arrives, or its failure. */
interface Pending {
  chunk(rows: unknown[], done: boolean): void;
  fail(error: Error): void;
}

/**
 * Hands each statement to the reader thread and takes its rows a chunk a message: whole
 * (`execute`), or as Kysely's `stream()` asks for them, the next chunk asked for once the last
 * was taken, so that a long result is never held on this thread. The thread starts with the first
 * statement (a process that never reads through it never starts it), again after it failed,
 * and never after destroy(), which ends it. Statements only: a read of several statements that
 * must agree is one statement (SQLite's snapshot is the statement's).
 */
class SqliteReaderDriver implements Driver {
  private worker: Worker | null = null;
  private closed = false;
  private nextId = 1;
  private readonly waiting = new Map<number, Pending>();
  private readonly connection: DatabaseConnection;

  constructor(private readonly path: string) {
    this.connection = {
      executeQuery: <R>(query: CompiledQuery) => this.execute(query) as Promise<QueryResult<R>>,
      streamQuery: <R>(query: CompiledQuery) => this.stream(query) as AsyncIterableIterator<QueryResult<R>>,
    };
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }

  async releaseConnection(): Promise<void> {}

  async beginTransaction(): Promise<void> {
    throw new Error('the reader thread runs single statements: a transaction belongs on the server’s connection');
  }

  async commitTransaction(): Promise<void> {}

  async rollbackTransaction(): Promise<void> {}

  async destroy(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.failAll(new Error('the reader thread was closed before the statement was answered'));
    if (worker === null) return;
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.postMessage({ kind: 'close' } satisfies ReaderRequest);
    });
  }

  private execute(query: CompiledQuery): Promise<QueryResult<unknown>> {
    return new Promise((resolve, reject) => {
      const rows: unknown[] = [];
      const id = this.send(query, {
        chunk: (part, done) => {
          for (const row of part) rows.push(row);
          if (done) resolve({ rows });
          else this.tell({ kind: 'more', id });
        },
        fail: reject,
      });
    });
  }

  private async *stream(query: CompiledQuery): AsyncIterableIterator<QueryResult<unknown>> {
    let next = nextChunk();
    const id = this.send(query, {
      chunk: (rows, done) => next.resolve({ rows, done }),
      fail: (error) => next.reject(error),
    });
    let done = false;
    try {
      while (!done) {
        const chunk = await next.promise;
        done = chunk.done;
        next = nextChunk();
        yield { rows: chunk.rows };
        if (!done) this.tell({ kind: 'more', id });
      }
    } finally {
      // The reader stopped early (or failed): the thread forgets the rows it keeps.
      if (!done && this.waiting.delete(id)) this.tell({ kind: 'drop', id });
    }
  }

  /** Sends the statement, to be answered to `pending`; its id. */
  private send(query: CompiledQuery, pending: Pending): number {
    const id = this.nextId++;
    if (this.closed) {
      pending.fail(new Error('the reader thread is closed'));
      return id;
    }
    if (this.waiting.size >= READS_WAITING_MAX) {
      pending.fail(new UnavailableError(SQLITE_READER));
      return id;
    }
    this.waiting.set(id, pending);
    this.start().postMessage({
      kind: 'query',
      id,
      sql: query.sql,
      parameters: query.parameters,
    } satisfies ReaderRequest);
    return id;
  }

  private tell(message: ReaderRequest): void {
    this.worker?.postMessage(message);
  }

  private start(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = new Worker(threadEntry('sqlite-reader-thread', import.meta.url), {
      workerData: { path: this.path, chunkRows: CHUNK_ROWS } satisfies ReaderData,
      execArgv: threadExecArgv(),
    });
    worker.on('message', (reply: ReaderReply) => this.answered(reply));
    worker.on('error', (error) => this.stopped(worker, new Error('the reader thread failed', { cause: error })));
    worker.on('exit', (code) => this.stopped(worker, new Error(`the reader thread exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private answered(reply: ReaderReply): void {
    const pending = this.waiting.get(reply.id);
    if (pending === undefined) return;
    if ('error' in reply) {
      this.waiting.delete(reply.id);
      return pending.fail(
        Object.assign(new Error(reply.error.message), reply.error.code === undefined ? {} : { code: reply.error.code }),
      );
    }
    if (reply.done) this.waiting.delete(reply.id);
    pending.chunk(reply.rows, reply.done);
  }

  /** The thread is gone: what waited on it fails, and the next statement starts another. */
  private stopped(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.failAll(error);
  }

  private failAll(error: Error): void {
    for (const pending of this.waiting.values()) pending.fail(error);
    this.waiting.clear();
  }
}
