import { setTimeout as pause } from 'node:timers/promises';
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type SqliteDatabase } from 'kysely';

/** How long a statement of the server's own connection waits for SQLite's write lock in all. */
export const LOCK_WAIT_MS = 5000;

// Between tries, spaced as SQLite's own busy handler spaces its sleeps.
const PAUSES_MS = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100];

/**
 * Kysely's driver for the server's SQLite connection (docs/design/clicks.md), in place of Kysely's own
 * SqliteDriver, for one reason: the wait for the write lock. SQLite's busy timeout sleeps inside
 * the statement, and better-sqlite3 runs statements on the thread that serves the redirect, so
 * each time a background job or an API write met the click writer's transaction every visit
 * waited with it. Here the connection's busy timeout is zero: a statement that finds the lock
 * taken fails at once with SQLITE_BUSY, having done nothing, and is tried again after a timer.
 *
 * Statements take turns on the connection, as in Kysely's driver, with one difference: a
 * statement or a `begin immediate` waiting for the lock waits outside its turn, so the reads of
 * other requests (a visit of a link not yet cached) run meanwhile. A transaction holds the turn
 * from its `begin` to its `commit` or `rollback`; inside it a busy answer is an error as before.
 * Kysely's savepoint calls are not offered: linkpix writes its savepoints as SQL (transactions.ts).
 */
export class SqliteServerDriver implements Driver {
  private readonly turns = new Turns();
  /** The connection handle whose transaction is open, if any. */
  private inTransaction: Handle | null = null;

  constructor(
    private readonly sqlite: SqliteDatabase,
    private readonly lockWaitMs = LOCK_WAIT_MS,
  ) {}

  async init(): Promise<void> {}

  /** A handle on the one connection: a transaction's statements go through the handle that began it. */
  async acquireConnection(): Promise<DatabaseConnection> {
    return new Handle(this);
  }

  async releaseConnection(): Promise<void> {}

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await this.waitingForTheLock(async () => {
      await this.turns.take();
      try {
        this.run(CompiledQuery.raw('begin immediate'));
      } catch (error) {
        this.turns.give();
        throw error;
      }
      this.inTransaction = connection as Handle;
    });
  }

  async commitTransaction(): Promise<void> {
    // A failed commit leaves the transaction open: Kysely rolls it back, which ends the turn.
    this.run(CompiledQuery.raw('commit'));
    this.endTransaction();
  }

  async rollbackTransaction(): Promise<void> {
    try {
      this.run(CompiledQuery.raw('rollback'));
    } finally {
      this.endTransaction();
    }
  }

  async destroy(): Promise<void> {
    this.sqlite.close();
  }

  /** A statement of `handle`: inside its transaction at once; otherwise in its turn, waiting for the lock outside it. */
  async execute<R>(handle: Handle, query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction === handle) return this.run<R>(query);
    return this.waitingForTheLock(async () => {
      await this.turns.take();
      try {
        return this.run<R>(query);
      } finally {
        this.turns.give();
      }
    });
  }

  private run<R>(query: CompiledQuery): QueryResult<R> {
    const statement = this.sqlite.prepare(query.sql);
    if (statement.reader) return { rows: statement.all(query.parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(query.parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  private endTransaction(): void {
    this.inTransaction = null;
    this.turns.give();
  }

  /** Tries `attempt` until it does not fail for the lock, pausing between tries, for up to lockWaitMs. */
  private async waitingForTheLock<T>(attempt: () => Promise<T>): Promise<T> {
    const deadline = performance.now() + this.lockWaitMs;
    for (let tries = 0; ; tries++) {
      try {
        return await attempt();
      } catch (error) {
        if (!isBusy(error) || performance.now() >= deadline) throw error;
      }
      await pause(PAUSES_MS[Math.min(tries, PAUSES_MS.length - 1)]);
    }
  }
}

class Handle implements DatabaseConnection {
  constructor(private readonly driver: SqliteServerDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute<R>(this, query);
  }

  // Kysely streams only when asked (`.stream()`), which linkpix never does on SQLite.
  // eslint-disable-next-line require-yield -- it only refuses
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on the server’s SQLite connection');
  }
}

/** Turns on the connection, first come first served. */
class Turns {
  private taken = false;
  private readonly waiting: Array<() => void> = [];

  async take(): Promise<void> {
    if (!this.taken) {
      this.taken = true;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the turn to the next in line, or frees it. */
  give(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.taken = false;
    else next();
  }
}

/** SQLITE_BUSY and its extended codes (better-sqlite3 names the extended one). */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
