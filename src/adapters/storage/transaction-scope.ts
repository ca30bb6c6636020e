import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, Kysely, type DatabaseConnection, type Dialect, type Driver } from 'kysely';
import type { UnitOfWork } from '../../core/shared/unit-of-work.ts';

/**
 * The core's UnitOfWork on Kysely without handing a transaction to every store and port
 * (docs/adr/0033): a unit holds one connection in an open transaction, and the driver Kysely is
 * built with answers every connection request of code running in the unit (found through
 * AsyncLocalStorage) with that connection. The stores keep using `db`; their own
 * `db.transaction()` becomes a savepoint of the unit, so a failure they catch (the importer's
 * unique violation, then row by row) undoes only its part and leaves the unit usable, which
 * PostgreSQL requires.
 *
 * Outside a unit connections come from the wrapped driver as before: on SQLite, code waits for
 * the one connection until the unit ends, as for any Kysely transaction. Code inside never asks
 * the wrapped driver, so it cannot wait for the connection its own unit holds.
 */
export interface ScopedKysely<DB> {
  db: Kysely<DB>;
  unitOfWork: UnitOfWork;
  /** Runs `task` once the current unit has committed (never if it rolls back); at once outside a unit. */
  afterCommit: (task: () => void) => void;
}

export interface TransactionScopeOptions {
  /**
   * The statement opening a unit, by default the driver's `begin`. SQLite: `begin immediate`,
   * so that a unit reading before it writes cannot find its snapshot overtaken by another
   * connection's write (SQLITE_BUSY_SNAPSHOT, which no busy timeout waits out).
   */
  begin?: string;
}

interface Scope {
  /** What code in the unit is given: the unit's connection, refusing queries once it ended. */
  readonly lent: DatabaseConnection;
  /** False once `work` has settled: a continuation started in the unit then uses the pool. */
  open: boolean;
  /** A store transaction (a savepoint) is running in the unit. */
  nested: boolean;
  readonly committed: Array<() => void>;
}

/** One savepoint at a time per unit, so one name: SQLite's statement cache keeps a few texts only. */
const SAVEPOINT = 'unit_of_work_store';

export function scopedKysely<DB>(dialect: Dialect, options: TransactionScopeOptions = {}): ScopedKysely<DB> {
  const scopes = new AsyncLocalStorage<Scope>();
  const lentTo = new WeakMap<DatabaseConnection, Scope>();
  let inner: Driver | null = null;
  const openScope = () => {
    const scope = scopes.getStore();
    return scope?.open ? scope : undefined;
  };

  const wrap = (d: Driver): Driver => ({
    init: () => d.init(),
    acquireConnection: () => {
      const scope = openScope();
      return scope ? Promise.resolve(scope.lent) : d.acquireConnection();
    },
    // The unit releases its connection itself, when it ends.
    releaseConnection: (connection) => (lentTo.has(connection) ? Promise.resolve() : d.releaseConnection(connection)),
    beginTransaction: async (connection, settings) => {
      const scope = lentTo.get(connection);
      if (!scope) return d.beginTransaction(connection, settings);
      // Two at once would interleave their statements and savepoints on the one connection.
      if (scope.nested) throw new Error('A transaction is already running in this unit of work: run them one after another.');
      scope.nested = true;
      try {
        await connection.executeQuery(CompiledQuery.raw(`savepoint ${SAVEPOINT}`));
      } catch (error) {
        scope.nested = false;
        throw error;
      }
    },
    commitTransaction: async (connection) => {
      const scope = lentTo.get(connection);
      if (!scope) return d.commitTransaction(connection);
      scope.nested = false;
      await connection.executeQuery(CompiledQuery.raw(`release savepoint ${SAVEPOINT}`));
    },
    rollbackTransaction: async (connection) => {
      const scope = lentTo.get(connection);
      if (!scope) return d.rollbackTransaction(connection);
      scope.nested = false;
      await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${SAVEPOINT}`));
      await connection.executeQuery(CompiledQuery.raw(`release savepoint ${SAVEPOINT}`));
    },
    savepoint: (connection, name, compile) => d.savepoint!(connection, name, compile),
    rollbackToSavepoint: (connection, name, compile) => d.rollbackToSavepoint!(connection, name, compile),
    releaseSavepoint: (connection, name, compile) => d.releaseSavepoint!(connection, name, compile),
    destroy: () => d.destroy(),
  });

  const db = new Kysely<DB>({
    dialect: {
      createDriver: () => (inner = wrap(dialect.createDriver())),
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createAdapter: () => dialect.createAdapter(),
      createIntrospector: (k) => dialect.createIntrospector(k),
    },
  });

  // Kysely initialises its driver lazily and destroys it only if it did: one connection taken
  // through Kysely before the first unit, so that `db.destroy()` also ends what units used.
  let ready: Promise<void> | null = null;
  const whenReady = () =>
    (ready ??= db
      .connection()
      .execute(async () => undefined)
      .catch((error: unknown) => {
        ready = null;
        throw error;
      }));

  const unitOfWork: UnitOfWork = async (work) => {
    if (openScope()) return work(); // a unit inside another joins it
    await whenReady();
    const d = inner!;
    // Outside any unit: on SQLite this waits here for someone else's transaction to end.
    const raw = await d.acquireConnection();
    const scope: Scope = {
      lent: {
        executeQuery: (query) => (scope.open ? raw.executeQuery(query) : Promise.reject(ended())),
        streamQuery: (query, chunkSize) => {
          if (!scope.open) throw ended();
          return raw.streamQuery(query, chunkSize);
        },
      },
      open: true,
      nested: false,
      committed: [],
    };
    lentTo.set(scope.lent, scope);
    let begun = false;
    let result;
    try {
      if (options.begin) await raw.executeQuery(CompiledQuery.raw(options.begin));
      else await d.beginTransaction(raw, {});
      begun = true;
      result = await scopes.run(scope, work);
      scope.open = false;
      await d.commitTransaction(raw);
      begun = false;
    } catch (error) {
      scope.open = false;
      // Also after a failed commit, as Kysely does: SQLite keeps the transaction open then.
      if (begun) await d.rollbackTransaction(raw);
      throw error;
    } finally {
      scope.open = false;
      await d.releaseConnection(raw);
    }
    for (const task of scope.committed) task();
    return result;
  };

  return {
    db,
    unitOfWork,
    afterCommit: (task) => {
      const scope = openScope();
      if (scope) scope.committed.push(task);
      else task();
    },
  };
}

/** A query issued in a unit that had already ended (work that did not await it): it must not run on a connection now someone else's. */
const ended = () => new Error('The unit of work this query was started in has ended.');
