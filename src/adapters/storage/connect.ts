import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, type Driver } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Database } from './schema.ts';
import { cachingStatements } from './statement-cache.ts';
import { defineSqliteFunctions } from './sqlite-functions.ts';
import { guardedPool } from './guarded-pool.ts';
import { LOCK_WAIT_MS, SqliteServerDriver } from './sqlite-driver.ts';
import { SqliteReaderDialect } from './reader/sqlite-reader.ts';
import { sqliteFileError } from './sqlite-file-error.ts';
import { OutageReporter, type OutageLog } from '../shared/outage-reporter.ts';

export type Engine = 'sqlite' | 'postgres';

export interface Storage {
  db: Kysely<Database>;
  /**
   * Where the reads that may go through any number of rows run (docs/design/event-loop.md): on a
   * SQLite file, a reader thread with a read-only connection of its own; on PostgreSQL, the pool
   * (the same as `db`); an in-memory SQLite database, which no other connection sees, reads on
   * `db`. Single statements only, no transaction.
   */
  reads: Kysely<Database>;
  engine: Engine;
  /** PostgreSQL's connection losses and returns (GET /metrics reads its counts); null on SQLite. */
  outage: OutageReporter | null;
  /**
   * SQLite: whether commits on this connection checkpoint the WAL once it is long (SQLite's
   * default). A checkpoint copies the WAL into the database file inside the commit that finds it
   * long, so the server leaves them to its click writer's connection while that runs (docs/design/clicks.md).
   * Nothing on PostgreSQL.
   */
  checkpointOnCommit(on: boolean): void;
  /**
   * SQLite: the connection itself, for the click writer of an in-memory database, which only
   * this connection sees (docs/design/clicks.md). Absent on PostgreSQL.
   */
  sqlite?: SQLite.Database;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** PostgreSQL only: work inside this schema (tests give each run its own). */
  schema?: string | undefined;
  poolSize?: number | undefined;
  /** PostgreSQL only: told once when the database goes away and once when it is back. */
  outageLog?: OutageLog | undefined;
  /** SQLite only: how long a statement waits for the write lock (tests shorten it). */
  lockWaitMs?: number | undefined;
}

/**
 * How linkpix's sessions appear in pg_stat_activity. An `application_name` parameter in
 * DATABASE_URL takes precedence (pg reads the URL last), e.g. to tell instances apart.
 */
const APPLICATION_NAME = 'linkpix';

// An unreachable host would otherwise hold every request for the operating system's TCP
// timeout (minutes) before it could be answered 503.
const CONNECT_TIMEOUT_MS = 5000;

const INT8_OID = 20;

/** SQLite's own default: a commit that finds the WAL this many pages long checkpoints it. */
const CHECKPOINT_PAGES = 1000;

/** Opens the database a DATABASE_URL names: postgres://… or sqlite:<path> (":memory:" allowed). */
export function connect(url: string, options: ConnectOptions = {}): Storage {
  if (/^postgres(ql)?:\/\//i.test(url)) return connectPostgres(url, options);
  return connectSqlite(sqlitePath(url), options.lockWaitMs ?? LOCK_WAIT_MS);
}

export function sqlitePath(url: string): string {
  const path = url.replace(/^sqlite:(\/\/)?/i, '').replace(/^file:/i, '');
  return path === ':memory:' ? path : resolve(path);
}

/**
 * The server's SQLite connection, through SqliteServerDriver (the lock waited for off the thread).
 * Every transaction on it writes, so each takes the write lock at its `begin immediate`: one that
 * reads first (a delete reads the link for its event) could otherwise find its snapshot
 * overtaken by the click writer's connection (SQLITE_BUSY_SNAPSHOT, which no wait helps).
 */
class ServerSqliteDialect extends SqliteDialect {
  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly lockWaitMs: number,
  ) {
    super({ database: sqlite });
  }

  override createDriver(): Driver {
    return new SqliteServerDriver(cachingStatements(this.sqlite), this.lockWaitMs);
  }
}

function connectSqlite(path: string, lockWaitMs: number): Storage {
  // The click writer's thread keeps SQLite's own wait: it serves no request.
  const sqlite = openSqlite(path, { busyTimeoutMs: 0 });
  const db = new Kysely<Database>({ dialect: new ServerSqliteDialect(sqlite, lockWaitMs) });
  const reads = path === ':memory:' ? db : new Kysely<Database>({ dialect: new SqliteReaderDialect(path) });
  return {
    db,
    reads,
    engine: 'sqlite',
    outage: null,
    sqlite,
    checkpointOnCommit: (on) => {
      // A thread that stops after its server's connection has closed finds nothing to set.
      if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${on ? CHECKPOINT_PAGES : 0}`);
    },
    close: async () => {
      if (reads !== db) await reads.destroy();
      await db.destroy();
    },
  };
}

/** A better-sqlite3 connection set up as every linkpix connection is (WAL, foreign keys, lower()). */
export function openSqlite(path: string, options: { busyTimeoutMs?: number } = {}): SQLite.Database {
  let sqlite: SQLite.Database | null = null;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    sqlite = new SQLite(path);
    // The first read of the file: one that is not SQLite's fails here, not in the migrations.
    sqlite.pragma('journal_mode = WAL');
  } catch (error) {
    sqlite?.close();
    throw sqliteFileError(path, error);
  }
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? LOCK_WAIT_MS}`);
  defineSqliteFunctions(sqlite);
  return sqlite;
}

function connectPostgres(url: string, options: ConnectOptions): Storage {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    application_name: APPLICATION_NAME,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // A peer that vanished without closing (a cut network) is noticed by the kernel's probes.
    keepAlive: true,
    // Counts and millisecond instants are int8: they fit a JS number exactly for millennia.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
        oid === INT8_OID
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
    // JIT compiles any query whose plan costs over 100 000, e.g. counting a million links:
    // that costs more than it saves on the short queries of a web app. Parallel workers are
    // started per query: the planner picks them for index scans it overestimates, where the
    // start costs far more than the scan, and they take cores from the instances themselves.
    // A random read is priced as on SSDs or a cached table: at the default (4, spinning disks)
    // a page of an account's links is read through the primary key, past every other account's.
    options: [
      '-c jit=off',
      '-c max_parallel_workers_per_gather=0',
      '-c random_page_cost=1.1',
      ...(options.schema ? [`-c search_path=${options.schema}`] : []),
    ].join(' '),
  });
  const outage = new OutageReporter('PostgreSQL', options.outageLog ?? (() => {}));
  const guarded = guardedPool(pool, { lost: (error) => outage.failed(error), connected: () => outage.recovered() });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: guarded }) });
  return { db, reads: db, engine: 'postgres', outage, checkpointOnCommit: () => {}, close: () => db.destroy() };
}
