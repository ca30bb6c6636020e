import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery, type SqliteDatabase, type SqliteStatement } from 'kysely';
import { SqliteServerDriver } from './sqlite-driver.ts';

const busy = (code = 'SQLITE_BUSY') => Object.assign(new Error('database is locked'), { code });

/**
 * A connection whose statements answer as told: `locked` statements (by their SQL) fail with
 * SQLITE_BUSY while `lock.held`, the others run; each run is logged in order.
 */
function fakeSqlite(lock: { held: boolean }, locked: (sql: string) => boolean = (sql) => !sql.startsWith('select')) {
  const log: string[] = [];
  const sqlite: SqliteDatabase = {
    close() {},
    prepare(sql: string): SqliteStatement {
      const attempt = () => {
        if (lock.held && locked(sql)) throw busy();
        log.push(sql);
      };
      return {
        reader: sql.startsWith('select'),
        all: () => (attempt(), []),
        run: () => (attempt(), { changes: 1, lastInsertRowid: 1 }),
        iterate: () => [][Symbol.iterator](),
      };
    },
  };
  return { sqlite, log };
}

const query = (sqlText: string) => CompiledQuery.raw(sqlText);

test('a statement that finds the write lock taken is tried again, the thread serving meanwhile', async () => {
  const lock = { held: true };
  const { sqlite, log } = fakeSqlite(lock);
  const driver = new SqliteServerDriver(sqlite);
  const connection = await driver.acquireConnection();
  let ticks = 0;
  const ticking = setInterval(() => ticks++, 1);
  const written = connection.executeQuery(query('update notes'));
  await new Promise((resolve) => setTimeout(resolve, 30));
  lock.held = false;
  await written;
  clearInterval(ticking);
  assert.deepEqual(log, ['update notes']);
  // One is proof enough: a loaded machine may run a 1 ms interval only a few times in 30 ms.
  assert.ok(ticks >= 1, `timers ran while it waited (${ticks})`);
});

test('reads run while a write waits for the lock', async () => {
  const lock = { held: true };
  const { sqlite, log } = fakeSqlite(lock);
  const driver = new SqliteServerDriver(sqlite);
  const [writer, reader] = [await driver.acquireConnection(), await driver.acquireConnection()];
  const written = writer.executeQuery(query('update notes'));
  await reader.executeQuery(query('select 1'));
  assert.deepEqual(log, ['select 1']);
  lock.held = false;
  await written;
  assert.deepEqual(log, ['select 1', 'update notes']);
});

test('a transaction holds the connection from begin to commit; others wait for its end', async () => {
  const { sqlite, log } = fakeSqlite({ held: false });
  const driver = new SqliteServerDriver(sqlite);
  const [inside, outside] = [await driver.acquireConnection(), await driver.acquireConnection()];
  await driver.beginTransaction(inside);
  const waiting = outside.executeQuery(query('select outside'));
  await inside.executeQuery(query('select inside'));
  await new Promise((resolve) => setImmediate(resolve));
  await driver.commitTransaction();
  await waiting;
  assert.deepEqual(log, ['begin immediate', 'select inside', 'commit', 'select outside']);
});

test('a begin that finds the lock taken waits for it outside the connection’s turn', async () => {
  const lock = { held: true };
  const { sqlite, log } = fakeSqlite(lock, (sql) => sql === 'begin immediate');
  const driver = new SqliteServerDriver(sqlite);
  const [inside, reader] = [await driver.acquireConnection(), await driver.acquireConnection()];
  const begun = driver.beginTransaction(inside);
  await reader.executeQuery(query('select 1'));
  lock.held = false;
  await begun;
  await driver.rollbackTransaction();
  assert.deepEqual(log, ['select 1', 'begin immediate', 'rollback']);
});

test('inside a transaction a busy answer is an error, not a wait', async () => {
  const lock = { held: false };
  const { sqlite } = fakeSqlite(lock);
  const driver = new SqliteServerDriver(sqlite);
  const connection = await driver.acquireConnection();
  await driver.beginTransaction(connection);
  lock.held = true;
  await assert.rejects(connection.executeQuery(query('update notes')), { code: 'SQLITE_BUSY' });
  lock.held = false;
  await driver.rollbackTransaction();
});

test('other errors are not tried again', async () => {
  const sqlite: SqliteDatabase = {
    close() {},
    prepare: () => {
      throw Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
    },
  };
  const connection = await new SqliteServerDriver(sqlite).acquireConnection();
  await assert.rejects(connection.executeQuery(query('insert into notes')), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
});

test('past its time the wait gives up with the busy error, and the connection serves on', async () => {
  const lock = { held: true };
  const { sqlite, log } = fakeSqlite(lock);
  const driver = new SqliteServerDriver(sqlite, 0);
  const connection = await driver.acquireConnection();
  await assert.rejects(connection.executeQuery(query('update notes')), { code: 'SQLITE_BUSY' });
  await connection.executeQuery(query('select 1'));
  assert.deepEqual(log, ['select 1']);
});
