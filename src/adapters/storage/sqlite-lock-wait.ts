import { setTimeout as pause } from 'node:timers/promises';
import type { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely';

/** How long a statement of the server's own connection waits for SQLite's write lock in all. */
export const LOCK_WAIT_MS = 5000;

// Between tries, spaced as SQLite's own busy handler spaces its sleeps.
const PAUSES_MS = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100];

/**
 * The server's SQLite connection, waiting for the write lock without holding its thread
 * (docs/adr/0041). SQLite's busy timeout sleeps inside the statement, and better-sqlite3 runs
 * statements on the thread that serves the redirect: each time a background job or an API write
 * met the click writer's transaction, every visit waited with it. With the connection's busy
 * timeout at zero, a statement that finds the lock taken fails at once with SQLITE_BUSY; outside
 * a transaction it has then done nothing, so it is tried again after a timer, while other work
 * runs. Inside a transaction (which began immediate, holding the lock) a busy answer is an error
 * as before.
 */
export class LockWaitingConnection implements DatabaseConnection {
  constructor(
    private readonly connection: DatabaseConnection,
    private readonly inTransaction: () => boolean,
    private readonly waitMs = LOCK_WAIT_MS,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const deadline = performance.now() + this.waitMs;
    for (let tries = 0; ; tries++) {
      try {
        return await this.connection.executeQuery<R>(query);
      } catch (error) {
        if (!isBusy(error) || this.inTransaction() || performance.now() >= deadline) throw error;
      }
      await pause(PAUSES_MS[Math.min(tries, PAUSES_MS.length - 1)]);
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.connection.streamQuery<R>(query, chunkSize);
  }
}

/** SQLITE_BUSY and its extended codes (better-sqlite3 names the extended one). */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
