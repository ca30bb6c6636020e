import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery, type DatabaseConnection, type QueryResult } from 'kysely';
import { LockWaitingConnection } from './sqlite-lock-wait.ts';

const busy = (code = 'SQLITE_BUSY') => Object.assign(new Error('database is locked'), { code });

/** A connection whose statements fail with these errors, in turn, then succeed. */
function connectionFailing(...errors: Error[]): DatabaseConnection & { tries: number } {
  return {
    tries: 0,
    executeQuery<R>(): Promise<QueryResult<R>> {
      const error = errors[this.tries++];
      // better-sqlite3 throws from the call itself, as Kysely's SQLite connection passes on.
      if (error !== undefined) throw error;
      return Promise.resolve({ rows: [] });
    },
    streamQuery() {
      throw new Error('not used');
    },
  };
}

const statement = CompiledQuery.raw('begin immediate');

test('a statement that finds the write lock taken is tried again until it gets it', async () => {
  const connection = connectionFailing(busy(), busy(), busy('SQLITE_BUSY_RECOVERY'));
  const result = await new LockWaitingConnection(connection, () => false).executeQuery(statement);
  assert.deepEqual(result.rows, []);
  assert.equal(connection.tries, 4);
});

test('the thread serves other work while a statement waits for the lock', async () => {
  const connection = connectionFailing(busy(), busy(), busy());
  let ticks = 0;
  const ticking = setInterval(() => ticks++, 0);
  try {
    await new LockWaitingConnection(connection, () => false).executeQuery(statement);
  } finally {
    clearInterval(ticking);
  }
  assert.ok(ticks > 0, 'timers ran between the tries');
});

test('inside a transaction a busy answer is an error, not a wait', async () => {
  const connection = connectionFailing(busy());
  await assert.rejects(new LockWaitingConnection(connection, () => true).executeQuery(statement), { code: 'SQLITE_BUSY' });
  assert.equal(connection.tries, 1);
});

test('other errors are not tried again', async () => {
  const connection = connectionFailing(Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' }));
  await assert.rejects(new LockWaitingConnection(connection, () => false).executeQuery(statement), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
  assert.equal(connection.tries, 1);
});

test('past its time the wait gives up with the busy error', async () => {
  const connection = connectionFailing(busy(), busy());
  await assert.rejects(new LockWaitingConnection(connection, () => false, 0).executeQuery(statement), { code: 'SQLITE_BUSY' });
  assert.equal(connection.tries, 1);
});
