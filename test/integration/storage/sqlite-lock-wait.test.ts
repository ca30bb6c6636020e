// The server's SQLite connection waits for the write lock off its thread (docs/design/clicks.md): while
// another connection (the click writer's) holds the lock, a write of the server's own waits,
// timers and reads go on; when the lock is let go, the write is done, once.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { connect, openSqlite } from '../../../src/adapters/storage/connect.ts';
import { migrateToLatest } from '../../../src/adapters/storage/migrations/index.ts';
import { SqlClickRecovery } from '../../../src/adapters/clicks/recovery/click-recovery.ts';
import { SqlDeliveryOutbox } from '../../../src/adapters/storage/stores/delivery-outbox.ts';
import { SqlExpiryClaims } from '../../../src/adapters/storage/stores/expiry-claims.ts';

/** The server's connection (`connect`) and a second one, as the click writer's, on one new file. */
function twoConnections(t: TestContext, options: { lockWaitMs?: number } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'linkpix-lock-wait-'));
  const path = join(dir, 'db.sqlite');
  const storage = connect(`sqlite:${path}`, options);
  const writer = openSqlite(path);
  const fileBytes = () => statSync(path).size;
  t.after(async () => {
    writer.close();
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { storage, writer, fileBytes };
}

test('a write waits for another connection’s write lock without holding the thread', async (t) => {
  const { storage, writer } = twoConnections(t);
  await sql`create table notes (id integer primary key, text text not null)`.execute(storage.db);
  writer.exec('begin immediate');
  writer.prepare('insert into notes (id, text) values (1, ?)').run('the writer’s');

  let ticks = 0;
  const ticking = setInterval(() => ticks++, 1);
  let written = 0;
  const statement = sql`insert into notes (id, text) values (2, 'the server’s')`
    .execute(storage.db)
    .then(() => written++);
  const unit = storage.db
    .transaction()
    .execute(async (trx) => {
      await sql`insert into notes (id, text) values (3, 'a transaction’s')`.execute(trx);
    })
    .then(() => written++);
  // Reads go on meanwhile (a visit of a link not yet cached), seeing what is committed.
  const read = await sql<{ n: number }>`select count(*) as n from notes`.execute(storage.db);
  assert.equal(read.rows[0]!.n, 0);
  // The writer holds the lock for a while, as its window of counters and rollups does.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const ticksWhileLocked = ticks;
  const writtenWhileLocked = written;
  writer.exec('commit');
  await Promise.all([statement, unit]);
  clearInterval(ticking);

  // A thread asleep in SQLite would have run none (and never reached the commit above). One is
  // proof enough: a loaded machine may run a 1 ms interval only a few times in 100 ms.
  assert.ok(ticksWhileLocked >= 1, `timers ran while the lock was held (${ticksWhileLocked})`);
  // Neither write was done before the writer let go of the lock.
  assert.equal(writtenWhileLocked, 0);
  const rows = await sql<{ id: number }>`select id from notes order by id`.execute(storage.db);
  assert.deepEqual(
    rows.rows.map((r) => r.id),
    [1, 2, 3],
  );
});

test('a write gives up with the busy error when the lock is held past the wait', async (t) => {
  const { storage, writer } = twoConnections(t, { lockWaitMs: 50 });
  await sql`create table notes (id integer primary key)`.execute(storage.db);
  writer.exec('begin immediate');
  await assert.rejects(sql`insert into notes (id) values (1)`.execute(storage.db), { code: 'SQLITE_BUSY' });
  writer.exec('rollback');
  await sql`insert into notes (id) values (1)`.execute(storage.db);
});

test('background rounds that find nothing to do never ask for the write lock', async (t) => {
  // Any wait for the lock would fail at once.
  const { storage, writer } = twoConnections(t, { lockWaitMs: 0 });
  await migrateToLatest(storage.db, 'sqlite');
  writer.exec('begin immediate');
  const now = Date.now();
  assert.deepEqual(await new SqlDeliveryOutbox(storage.db, 'sqlite').claim(now, 60_000, 10), []);
  assert.deepEqual(await new SqlExpiryClaims(storage.db, 'sqlite').claim(now, 500), []);
  assert.deepEqual(await new SqlClickRecovery(storage.db, 'sqlite').recover(now), { batches: 0, clicks: 0 });
  writer.exec('rollback');
});

test('while the click writer runs, the server’s commits leave the WAL’s checkpoints to it', async (t) => {
  const { storage, fileBytes } = twoConnections(t);
  await sql`create table notes (body blob not null)`.execute(storage.db);
  const before = fileBytes();
  const note = sql`insert into notes (body) values (zeroblob(16384))`;
  storage.checkpointOnCommit(false);
  // About 1 500 pages, past SQLite's 1 000 that make a commit checkpoint: they stay in the WAL.
  for (let i = 0; i < 300; i++) await note.execute(storage.db);
  assert.equal(fileBytes(), before);
  storage.checkpointOnCommit(true);
  await note.execute(storage.db);
  assert.ok(fileBytes() > 300 * 16384, 'the next commit copied the WAL into the database file');
});
