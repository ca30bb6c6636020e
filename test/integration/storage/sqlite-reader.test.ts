// The reader thread of a SQLite file (storage.reads, docs/design/event-loop.md): it answers what
// the server's connection would, a long result whole and in order; it sees what the server's
// connection committed; it reads only; a long statement there leaves the main thread free; an
// in-memory database reads on its one connection; and a closed storage, or a closed server, leaves
// no thread behind (a process that opened one ends by itself).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { connect } from '../../../src/adapters/storage/connect.ts';
import { READS_WAITING_MAX, SQLITE_READER } from '../../../src/adapters/storage/reader/sqlite-reader.ts';
import { UnavailableError } from '../../../src/core/shared/errors.ts';
import { ROOT } from '../../support/processes.ts';

function fileStorage(t: TestContext) {
  const dir = mkdtempSync(join(tmpdir(), 'linkpix-reader-'));
  const path = join(dir, 'db.sqlite');
  const storage = connect(`sqlite:${path}`);
  t.after(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { storage, dir, path };
}

const numbers = (n: number) =>
  sql<{ i: number }>`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${n}) select i from n`;

test('a result of many chunks arrives whole and in order, as the server’s connection answers it', async (t) => {
  const { storage } = fileStorage(t);
  assert.notEqual(storage.reads, storage.db);
  const [read, direct] = await Promise.all([numbers(4321).execute(storage.reads), numbers(4321).execute(storage.db)]);
  assert.equal(read.rows.length, 4321);
  assert.deepEqual(read.rows, direct.rows);
  assert.deepEqual((await sql<{ v: string }>`select lower('ÉTÉ') as v`.execute(storage.reads)).rows, [{ v: 'été' }]);
});

test('a stream takes the rows a chunk at a time, in order; one left early leaves the thread answering', async (t) => {
  const { storage } = fileStorage(t);
  await sql`create table n (i integer primary key)`.execute(storage.db);
  await sql`insert into n (i) with recursive s(i) as (select 1 union all select i + 1 from s where i < 2500) select i from s`.execute(
    storage.db,
  );
  const reads = storage.reads as unknown as Kysely<{ n: { i: number } }>;
  const all = reads.selectFrom('n').select('i').orderBy('i');
  const streamed: number[] = [];
  for await (const row of all.stream()) streamed.push(row.i);
  assert.deepEqual(
    streamed,
    Array.from({ length: 2500 }, (_, k) => k + 1),
  );
  let taken = 0;
  for await (const _row of all.stream()) if (++taken === 10) break;
  assert.deepEqual((await sql`select count(*) as c from n`.execute(storage.reads)).rows, [{ c: 2500 }]);
});

test('the thread sees what the server’s connection committed, and reads only', async (t) => {
  const { storage } = fileStorage(t);
  await sql`create table notes (id integer primary key, text text not null)`.execute(storage.db);
  await sql`insert into notes (id, text) values (1, 'one'), (2, 'two')`.execute(storage.db);
  assert.deepEqual((await sql`select id, text from notes order by id`.execute(storage.reads)).rows, [
    { id: 1, text: 'one' },
    { id: 2, text: 'two' },
  ]);
  await sql`insert into notes (id, text) values (3, 'three')`.execute(storage.db);
  assert.deepEqual((await sql`select count(*) as n from notes`.execute(storage.reads)).rows, [{ n: 3 }]);
  await assert.rejects(sql`insert into notes (id, text) values (4, 'four')`.execute(storage.reads), /return rows/);
  await assert.rejects(
    sql`select x from nowhere`.execute(storage.reads),
    (e: Error & { code?: string }) => e.code === 'SQLITE_ERROR' && /no such table/.test(e.message),
  );
  await assert.rejects(
    storage.reads.transaction().execute(async () => {}),
    /single statements/,
  );
  // A failed statement leaves the thread answering.
  assert.deepEqual((await sql`select count(*) as n from notes`.execute(storage.reads)).rows, [{ n: 3 }]);
});

test('while a long statement runs on the thread, the main thread and its connection answer', async (t) => {
  const { storage } = fileStorage(t);
  await sql`select 1`.execute(storage.reads); // the thread started
  const order: string[] = [];
  const long =
    sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000000) select count(*) as c from n`
      .execute(storage.reads)
      .then(() => order.push('long read'));
  // Asked after the long one, answered before it: the long one holds the thread, not the loop.
  const quick = sql`select 1 as one`.execute(storage.db).then(() => order.push('server connection'));
  const timer = new Promise((resolve) => setTimeout(resolve, 5)).then(() => order.push('timer'));
  await Promise.all([long, quick, timer]);
  assert.deepEqual(order.slice(0, 2).sort(), ['server connection', 'timer']);
  assert.equal(order[2], 'long read');
});

test('past READS_WAITING_MAX statements waiting, a read is refused at once (unavailable), and the thread answers after', async (t) => {
  const { storage } = fileStorage(t);
  await sql`select 1`.execute(storage.reads); // the thread started
  const long = sql<{
    c: number;
  }>`with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000000) select count(*) as c from n`.execute(
    storage.reads,
  );
  const extra = 8;
  const settled = await Promise.allSettled(
    Array.from({ length: READS_WAITING_MAX + extra }, () => sql`select 1 as one`.execute(storage.reads)),
  );
  const refused = settled.filter((s) => s.status === 'rejected').map((s) => s.reason);
  assert.equal(refused.length, extra + 1, `${refused.length} refused`);
  for (const error of refused)
    assert.ok(error instanceof UnavailableError && error.dependency === SQLITE_READER, String(error));
  assert.deepEqual((await long).rows, [{ c: 3_000_000 }]);
  assert.deepEqual((await sql`select 1 as one`.execute(storage.reads)).rows, [{ one: 1 }]);
});

test('an in-memory database reads on its one connection', async () => {
  const storage = connect('sqlite::memory:');
  try {
    assert.equal(storage.reads, storage.db);
    await sql`create table t (x integer)`.execute(storage.db);
    await sql`insert into t values (7)`.execute(storage.db);
    assert.deepEqual((await sql`select x from t`.execute(storage.reads)).rows, [{ x: 7 }]);
  } finally {
    await storage.close();
  }
});

test('a closed storage refuses reads', async (t) => {
  const { storage } = fileStorage(t);
  await sql`select 1`.execute(storage.reads);
  await storage.close();
  await assert.rejects(sql`select 1`.execute(storage.reads), /closed|destroyed/);
});

/** Runs `code` (an ES module importing the sources through tsx) in a process of its own; its exit code and output, or a failure when it does not end by itself. */
async function ownProcess(code: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const [exitCode, signal] = (await once(child, 'exit')) as [number | null, string | null];
  clearTimeout(timer);
  assert.equal(
    signal,
    null,
    `the process did not end by itself once closed (something was left open); output:\n${output}`,
  );
  return { code: exitCode, output };
}

test('a process whose storage read through the thread and closed ends by itself', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'linkpix-reader-exit-'));
  try {
    const ran = await ownProcess(
      `import { sql } from 'kysely';
       import { connect } from './src/adapters/storage/connect.ts';
       const storage = connect('sqlite:' + process.env.DB);
       const { rows } = await sql\`select 41 + 1 as n\`.execute(storage.reads);
       await storage.close();
       console.log('read', rows[0].n);`,
      { DB: join(dir, 'db.sqlite') },
    );
    assert.equal(ran.code, 0, ran.output);
    assert.match(ran.output, /read 42/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a server that answered a preview and closed leaves no thread or timer behind', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'linkpix-reader-server-'));
  try {
    const ran = await ownProcess(
      `import { loadConfig } from './src/app/config.ts';
       import { buildServer } from './src/app/server.ts';
       const config = loadConfig({ DATABASE_URL: 'sqlite:' + process.env.DB, LOG_LEVEL: 'silent', TITLE_FETCH: 'false', API_RATE_LIMIT: '0', APP_URL: 'http://short.test' });
       const server = await buildServer(config);
       const { apiKey } = await server.container.accounts.createAccount({ email: 'reader@example.com' });
       const headers = { authorization: 'Bearer ' + apiKey, 'content-type': 'application/json' };
       const link = await server.app.inject({ method: 'POST', url: '/api/v1/links', headers, payload: { url: 'https://example.com/' } });
       const preview = await server.app.inject({ method: 'POST', url: '/api/v1/links/' + link.json().data.id + '/rules/preview', headers, payload: { rules: [] } });
       await server.close();
       console.log('preview', preview.statusCode, preview.json().data.clicks);`,
      { DB: join(dir, 'db.sqlite') },
    );
    assert.equal(ran.code, 0, ran.output);
    assert.match(ran.output, /preview 200 0/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
