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
import { threadEntry, threadExecArgv } from '../../shared/thread-entry.ts';
import type { ReaderData, ReaderReply, ReaderRequest } from './reader-messages.ts';

/** Rows a message from the thread carries at most: the main thread reads each in one go. */
const CHUNK_ROWS = 1000;

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

interface Pending {
  rows: unknown[];
  resolve(result: QueryResult<unknown>): void;
  reject(error: Error): void;
}

/**
 * Hands each statement to the reader thread and gathers its rows, a chunk a message. The thread
 * starts with the first statement (a process that never reads through it never starts it), again
 * after it failed, and never after destroy(), which ends it. Statements only: a read of several
 * statements that must agree is one statement (SQLite's snapshot is the statement's).
 */
export class SqliteReaderDriver implements Driver {
  private worker: Worker | null = null;
  private closed = false;
  private nextId = 1;
  private readonly waiting = new Map<number, Pending>();
  private readonly connection: DatabaseConnection;

  constructor(private readonly path: string) {
    this.connection = {
      executeQuery: <R>(query: CompiledQuery) => this.execute(query) as Promise<QueryResult<R>>,
      // eslint-disable-next-line require-yield -- it only refuses
      streamQuery: async function* () {
        throw new Error('the reader thread answers whole results, a chunk a message; it does not stream');
      },
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

  /** Whether the thread is running now (tests: a closed server leaves none behind). */
  get running(): boolean {
    return this.worker !== null;
  }

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
    if (this.closed) return Promise.reject(new Error('the reader thread is closed'));
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { rows: [], resolve, reject });
      worker.postMessage({ kind: 'query', id, sql: query.sql, parameters: query.parameters } satisfies ReaderRequest);
    });
  }

  private start(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = new Worker(threadEntry('sqlite-reader-thread', import.meta.url), {
      workerData: { path: this.path, chunkRows: CHUNK_ROWS } satisfies ReaderData,
      execArgv: threadExecArgv(),
    });
    worker.on('message', (reply: ReaderReply) => this.answered(worker, reply));
    worker.on('error', (error) => this.stopped(worker, new Error('the reader thread failed', { cause: error })));
    worker.on('exit', (code) => this.stopped(worker, new Error(`the reader thread exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private answered(worker: Worker, reply: ReaderReply): void {
    const pending = this.waiting.get(reply.id);
    if (pending === undefined) return;
    if ('error' in reply) {
      this.waiting.delete(reply.id);
      return pending.reject(Object.assign(new Error(reply.error.message), reply.error.code === undefined ? {} : { code: reply.error.code }));
    }
    for (const row of reply.rows) pending.rows.push(row);
    if (!reply.done) return worker.postMessage({ kind: 'more', id: reply.id } satisfies ReaderRequest);
    this.waiting.delete(reply.id);
    pending.resolve({ rows: pending.rows });
  }

  /** The thread is gone: what waited on it fails, and the next statement starts another. */
  private stopped(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.failAll(error);
  }

  private failAll(error: Error): void {
    for (const pending of this.waiting.values()) pending.reject(error);
    this.waiting.clear();
  }
}
