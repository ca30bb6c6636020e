import { sql, type Kysely } from 'kysely';
import type { UnitOfWork } from '../../core/shared/unit-of-work.ts';
import type { Database } from './schema.ts';

/**
 * A store's own transaction; or, when the store was built on a unit of work's transaction, a
 * savepoint in it (Kysely opens no transaction inside another): a failure the caller catches
 * (the importer's unique violation, then row by row) undoes only the store's part and leaves
 * the unit usable, which PostgreSQL requires. One name serves: a unit's writes run one after
 * another, so its savepoints never overlap.
 */
export async function storeTransaction<T, DB = Database>(
  db: Kysely<DB>,
  work: (trx: Kysely<DB>) => Promise<T>,
): Promise<T> {
  if (!db.isTransaction) return db.transaction().execute(work);
  await sql`savepoint store_write`.execute(db);
  try {
    const result = await work(db);
    await sql`release savepoint store_write`.execute(db);
    return result;
  } catch (error) {
    await sql`rollback to savepoint store_write`.execute(db);
    await sql`release savepoint store_write`.execute(db);
    throw error;
  }
}

/**
 * The core's UnitOfWork on Kysely (docs/design/webhooks.md): one transaction, and the ports `portsOn`
 * builds on it, so that everything the unit reads and writes goes through that transaction (on
 * SQLite there is one connection: a store on the pool would wait for the unit to end). Tasks the
 * ports hand to `afterCommit` run once it has committed, never if it rolls back.
 */
export function unitOfWorkOn<Ports, DB = Database>(
  db: Kysely<DB>,
  portsOn: (trx: Kysely<DB>, afterCommit: (task: () => void) => void) => Ports,
): UnitOfWork<Ports> {
  return async (work) => {
    const committed: Array<() => void> = [];
    const result = await db.transaction().execute((trx) => work(portsOn(trx, (task) => committed.push(task))));
    for (const task of committed) task();
    return result;
  };
}
