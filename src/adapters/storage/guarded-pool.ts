import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { UnavailableError } from '../../core/shared/errors.ts';
import { isConnectionError, translateConnectionError } from './connection-errors.ts';

/** What the pool tells about connections that end on their own. */
export interface PoolWatch {
  lost(error: unknown): void;
  connected(): void;
}

// A statement that changes nothing when it runs twice: only these are sent again on a fresh
// connection after the first connection turned out to be dead.
const REPEATABLE = /^\s*(select|begin|start transaction)\b/i;
// Bounds the walk through dead idle connections (a pool is never larger than this).
const MAX_REPEATS = 500;

/** Clients that have run a statement: only these can have died while idle in the pool. */
const used = new WeakSet<pg.PoolClient>();

/**
 * The pg pool as Kysely receives it. Connection failures become UnavailableError here, the
 * one place that knows pg's codes. A connection that ended while idle (a database restart,
 * pg_terminate_backend, a cut) is dropped by pg's pool; if a request picked it just before its
 * end was noticed, its first statement is sent again on a new connection when repeating it is
 * harmless, so the first requests after a restart do not fail.
 */
export function guardedPool(pool: pg.Pool, watch: PoolWatch): PostgresPool {
  // The pool emits 'error' for an idle client whose connection ended (the client is already
  // removed): without a listener, that event ends the process.
  pool.on('error', (error) => watch.lost(error));
  // A checked-out client reports its socket's end on itself (the pool listens only to idle
  // ones); the statement in flight is rejected with it too, so the listener only has to exist.
  pool.on('connect', (client) => {
    client.on('error', (error) => watch.lost(error));
    watch.connected();
  });
  // Every failure that says the database is away is told to the watch, wherever it surfaced.
  const translate = (error: unknown): unknown => {
    const translated = translateConnectionError(error);
    if (translated instanceof UnavailableError) watch.lost(error);
    return translated;
  };
  const checkout = async (): Promise<pg.PoolClient> => {
    try {
      return await pool.connect();
    } catch (error) {
      throw translate(error);
    }
  };
  return {
    connect: async () => new Checkout(await checkout(), checkout, translate),
    end: () => pool.end(),
  };
}

/** One checkout of a pooled client, from Kysely's acquire to its release. */
class Checkout implements PostgresPoolClient {
  private fresh = true;
  /** Null once the client is given back and no other could be had. */
  private client: pg.PoolClient | null;

  constructor(
    client: pg.PoolClient,
    private readonly checkout: () => Promise<pg.PoolClient>,
    private readonly translate: (error: unknown) => unknown,
  ) {
    this.client = client;
  }

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    sqlOrCursor: string | PostgresCursor<R>,
    parameters?: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sqlOrCursor !== 'string') return this.live().query(sqlOrCursor as never);
    const first = this.fresh;
    this.fresh = false;
    return this.run<R>(sqlOrCursor, [...(parameters ?? [])], first && REPEATABLE.test(sqlOrCursor));
  }

  release(): void {
    this.client?.release();
    this.client = null;
  }

  private live(): pg.PoolClient {
    if (this.client === null) throw new UnavailableError('database');
    return this.client;
  }

  private async run<R>(sql: string, parameters: unknown[], repeatable: boolean): Promise<PostgresQueryResult<R>> {
    // Every idle connection may have ended at once (a restart ends them all): each dead one is
    // dropped in turn, until a new connection answers or cannot be made.
    for (let attempt = 0; ; attempt++) {
      const client = this.live();
      const reused = used.has(client);
      used.add(client);
      try {
        return (await client.query(sql, parameters)) as unknown as PostgresQueryResult<R>;
      } catch (error) {
        if (!repeatable || !reused || attempt >= MAX_REPEATS || !isConnectionError(error)) throw this.translate(error);
        // The pool destroys a client released with an error instead of keeping it.
        client.release(error instanceof Error ? error : true);
        this.client = null;
        this.client = await this.checkout();
      }
    }
  }
}
