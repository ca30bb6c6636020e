// The SQLite writer thread (WorkerClickStore → click-writer-worker → ClickWriter over SqliteClickWrites) on a
// real database file: what it is handed is written on its interval or when asked to settle, the
// counters (written with the window) match the rows, the rollup window reaches click_rollups,
// and a stop loses nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { handOver, toBatch } from '../../support/click-hand-over.ts';
import { ClickColumnsBuilder } from '../../../src/adapters/clicks/sink/click-columns.ts';
import { WorkerClickStore } from '../../../src/adapters/clicks/thread/worker-click-store.ts';
import { loadConfig } from '../../../src/app/config.ts';
import { createContainer, type Container } from '../../../src/app/container.ts';
import { describeClickWriterContract, sqlClickState } from '../../contracts/click-writer-contract.ts';
import { clickRowsOf, rollupCount, writerClick as click, WRITER_DAY as DAY } from '../../support/clicks.ts';
import { TEST_ACTOR } from '../../support/audit-actor.ts';

describe('the SQLite writer thread', () => {
  let dir: string;
  let url: string;
  let c: Container;
  let accountId: number;
  const links: number[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkpix-writer-'));
    url = `sqlite:${join(dir, 'w.db')}`;
    c = createContainer(loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', TITLE_FETCH: 'false' }), { titles: null });
    await c.migrate();
    const { account } = await c.accounts.createAccount({ email: 'writer@example.com', name: 'writer' });
    accountId = account.id;
    for (let i = 0; i < 4; i++)
      links.push((await c.links.create(accountId, 'UTC', { url: `https://example.com/${i}` }, TEST_ACTOR)).link.id);
  });
  after(async () => {
    await c.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rowsOf = (linkId: number) => clickRowsOf(c.storage.db, linkId);
  const clicksOf = async (linkId: number) =>
    (await c.storage.db.selectFrom('links').select('clicks').where('id', '=', linkId).executeTakeFirstOrThrow()).clicks;
  const rollup = (linkId: number, dimension: string, value = '') =>
    rollupCount(c.storage.db, linkId, DAY, dimension, value);

  test('clicks handed over wait for the interval; settle writes rows, counters and rollups at once', async () => {
    const store = new WorkerClickStore({
      engine: 'sqlite',
      maxBuffered: 1_000_000,
      databaseUrl: url,
      writeIntervalMs: 60_000,
      rollupIntervalMs: 60_000,
    });
    try {
      const [a, b] = [links[0]!, links[1]!];
      handOver(
        store,
        toBatch([
          { click: click(a, accountId) },
          { click: click(a, accountId, { visitor: 'other' }) },
          { click: click(b, accountId) },
        ]),
      );
      handOver(store, toBatch([{ click: click(a, accountId, { isBot: true, visitor: null }) }]));
      assert.equal(await rowsOf(a), 0, 'written before the interval');
      await store.settle();
      assert.deepEqual([await rowsOf(a), await clicksOf(a), await rowsOf(b), await clicksOf(b)], [3, 2, 1, 1]);
      assert.deepEqual(
        [await rollup(a, 'total'), await rollup(a, 'unique'), await rollup(a, 'bot'), await rollup(a, 'country', 'US')],
        [2, 2, 1, 2],
      );
      // The same visitor again on the same day is not unique a second time.
      handOver(store, toBatch([{ click: click(a, accountId) }]));
      await store.settle();
      assert.deepEqual([await rollup(a, 'total'), await rollup(a, 'unique')], [3, 2]);
    } finally {
      await store.close();
    }
  });

  test('the write interval writes without being asked; the latest rotation position is kept', async () => {
    const store = new WorkerClickStore({
      engine: 'sqlite',
      maxBuffered: 1_000_000,
      databaseUrl: url,
      writeIntervalMs: 20,
      rollupIntervalMs: 0,
    });
    try {
      const link = links[2]!;
      handOver(store, toBatch([{ click: click(link, accountId), rotation: 1 }]));
      handOver(store, toBatch([{ click: click(link, accountId), rotation: 2 }]));
      // Rows, then the window in a transaction of its own: wait for the second.
      // Polled up to a deadline far past the interval: a loaded machine may run the thread late.
      for (const until = Date.now() + 15_000; Date.now() < until && (await clicksOf(link)) < 2;)
        await new Promise((r) => setTimeout(r, 20));
      assert.equal(await rowsOf(link), 2);
      const row = await c.storage.db
        .selectFrom('links')
        .select(['clicks', 'last_rotation'])
        .where('id', '=', link)
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { clicks: 2, last_rotation: 2 });
    } finally {
      await store.close();
    }
  });

  test('a small window is written with the rows; a large one waits for its interval, counters included', async () => {
    const store = new WorkerClickStore({
      engine: 'sqlite',
      maxBuffered: 1_000_000,
      databaseUrl: url,
      writeIntervalMs: 20,
      rollupIntervalMs: 60_000,
    });
    const [quiet, busy] = [
      (await c.links.create(accountId, 'UTC', { url: 'https://example.com/quiet' }, TEST_ACTOR)).link.id,
      (await c.links.create(accountId, 'UTC', { url: 'https://example.com/busy' }, TEST_ACTOR)).link.id,
    ];
    const waitForRows = async (link: number, n: number) => {
      for (let i = 0; i < 200 && (await rowsOf(link)) < n; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(await rowsOf(link), n);
    };
    try {
      handOver(
        store,
        toBatch([
          { click: click(quiet, accountId), rotation: 1 },
          { click: click(quiet, accountId), rotation: 2 },
        ]),
      );
      await waitForRows(quiet, 2);
      // The window is the next transaction after the rows' (one for each, so that a failed
      // window never writes the rows twice): a read can fall between the two.
      for (let i = 0; i < 200 && (await clicksOf(quiet)) < 2; i++) await new Promise((r) => setTimeout(r, 5));
      const row = await c.storage.db
        .selectFrom('links')
        .select(['clicks', 'last_rotation'])
        .where('id', '=', quiet)
        .executeTakeFirstOrThrow();
      assert.deepEqual([row, await rollup(quiet, 'total')], [{ clicks: 2, last_rotation: 2 }, 2]);

      // 1 100 distinct visitors: more rows in the window than are worth writing every batch.
      handOver(
        store,
        toBatch(
          Array.from({ length: 1100 }, (_, i) => ({
            click: click(busy, accountId, { visitor: `b${i}` }),
            rotation: i % 3,
          })),
        ),
      );
      await waitForRows(busy, 1100);
      assert.deepEqual(
        [await clicksOf(busy), await rollup(busy, 'total')],
        [0, 0],
        'the large window waits for its interval',
      );
      await store.settle();
      const after = await c.storage.db
        .selectFrom('links')
        .select(['clicks', 'last_rotation'])
        .where('id', '=', busy)
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        [after, await rollup(busy, 'total'), await rollup(busy, 'unique')],
        [{ clicks: 1100, last_rotation: 1099 % 3 }, 1100, 1100],
      );
    } finally {
      await store.close();
    }
  });

  test('clicks of a link deleted before they are written are dropped; the others are written', async () => {
    const store = new WorkerClickStore({
      engine: 'sqlite',
      maxBuffered: 1_000_000,
      databaseUrl: url,
      writeIntervalMs: 60_000,
      rollupIntervalMs: 60_000,
    });
    const gone = (await c.links.create(accountId, 'UTC', { url: 'https://example.com/gone' }, TEST_ACTOR)).link.id;
    const kept = links[3]!;
    try {
      handOver(store, toBatch([{ click: click(gone, accountId) }, { click: click(kept, accountId) }]));
      await c.links.delete(accountId, gone, TEST_ACTOR);
      await store.settle();
      assert.deepEqual(
        [await rowsOf(gone), await rowsOf(kept), await rollup(gone, 'total'), await rollup(kept, 'total')],
        [0, 1, 0, 1],
      );
    } finally {
      await store.close();
    }
  });

  test('a link the thread has written clicks for, then deleted, gets none of its later clicks', async () => {
    // The thread remembers links it found (see liveLinks): a delete by another connection must
    // make it look again.
    const store = new WorkerClickStore({
      engine: 'sqlite',
      maxBuffered: 1_000_000,
      databaseUrl: url,
      writeIntervalMs: 60_000,
      rollupIntervalMs: 60_000,
    });
    const gone = (await c.links.create(accountId, 'UTC', { url: 'https://example.com/gone-later' }, TEST_ACTOR)).link
      .id;
    const kept = links[2]!;
    const keptBefore = await rowsOf(kept);
    try {
      handOver(store, toBatch([{ click: click(gone, accountId) }, { click: click(kept, accountId) }]));
      await store.settle();
      assert.equal(await rowsOf(gone), 1);
      await c.links.delete(accountId, gone, TEST_ACTOR);
      handOver(
        store,
        toBatch([{ click: click(gone, accountId, { visitor: 'v-again' }) }, { click: click(kept, accountId) }]),
      );
      await store.settle();
      const sweptLater = await c.storage.db
        .selectFrom('deleted_links')
        .select('link_id')
        .where('link_id', '=', gone)
        .execute();
      assert.deepEqual(
        [await rowsOf(gone), (await rowsOf(kept)) - keptBefore, await rollup(gone, 'total'), sweptLater.length],
        [1, 2, 0, 1],
      );
    } finally {
      await store.close();
    }
  });

  test('rows are written whole and in order, fifty to a statement and the rest one by one, skipping a deleted link', async () => {
    const store = new WorkerClickStore({
      engine: 'sqlite',
      maxBuffered: 1_000_000,
      databaseUrl: url,
      writeIntervalMs: 60_000,
      rollupIntervalMs: 60_000,
    });
    const gone = (await c.links.create(accountId, 'UTC', { url: 'https://example.com/gone-too' }, TEST_ACTOR)).link.id;
    const kept = (await c.links.create(accountId, 'UTC', { url: 'https://example.com/kept' }, TEST_ACTOR)).link.id;
    // 130 clicks, every third one (44) of the deleted link: 86 rows, one statement of 50, then 36.
    const sent = Array.from({ length: 130 }, (_, i) =>
      click(i % 3 === 0 ? gone : kept, accountId, {
        at: Date.parse(`${DAY}T10:30:00Z`) + i,
        country: i % 2 ? 'GB' : null,
        referrerHost: i % 5 ? `r${i}.example` : null,
        isBot: i % 7 === 0,
      }),
    );
    try {
      handOver(store, toBatch(sent.map((click) => ({ click }))));
      await c.links.delete(accountId, gone, TEST_ACTOR);
      await store.settle();
      const rows = await c.storage.db
        .selectFrom('clicks')
        .select(['link_id', 'account_id', 'at', 'country', 'referrer_host', 'is_bot'])
        .where('link_id', 'in', [gone, kept])
        .orderBy('id')
        .execute();
      const expected = sent
        .filter((k) => k.linkId === kept)
        .map((k) => ({
          link_id: kept,
          account_id: accountId,
          at: k.at,
          country: k.country,
          referrer_host: k.referrerHost,
          is_bot: k.isBot ? 1 : 0,
        }));
      assert.equal(rows.length, 86);
      assert.deepEqual(
        rows.map((r) => ({ ...r, at: Number(r.at), is_bot: Number(r.is_bot) })),
        expected,
      );
    } finally {
      await store.close();
    }
  });

  test('close writes everything it was handed, rollups included', async () => {
    const store = new WorkerClickStore({
      engine: 'sqlite',
      maxBuffered: 1_000_000,
      databaseUrl: url,
      writeIntervalMs: 60_000,
      rollupIntervalMs: 60_000,
    });
    const link = (await c.links.create(accountId, 'UTC', { url: 'https://example.com/close' }, TEST_ACTOR)).link.id;
    handOver(
      store,
      toBatch(Array.from({ length: 500 }, (_, i) => ({ click: click(link, accountId, { visitor: `v${i}` }) }))),
    );
    await store.close();
    assert.deepEqual(
      [await rowsOf(link), await clicksOf(link), await rollup(link, 'total'), await rollup(link, 'unique')],
      [500, 500, 500, 500],
    );
  });

  test('once closed, the store starts no thread again: clicks handed over then are dropped, counted and told', async () => {
    const errors: unknown[] = [];
    const store = new WorkerClickStore(
      { engine: 'sqlite', maxBuffered: 1_000_000, databaseUrl: url, writeIntervalMs: 20, rollupIntervalMs: 60_000 },
      { onError: (e) => errors.push(e) },
    );
    await store.open();
    await store.close();
    const link = links[3]!;
    const rowsBefore = await rowsOf(link);
    const columns = new ClickColumnsBuilder(2);
    columns.add(click(link, accountId));
    columns.add(click(link, accountId, { visitor: 'other' }));
    store.writeColumns(columns.build(), new Map([[link, 2]]), new Map(), Date.now());
    await store.open();
    assert.equal(store.meter.dropped, 2);
    assert.equal(errors.length, 1);
    assert.match(String(errors[0]), /2 clicks handed to the click writer after it closed/);
    await store.settle(); // no thread to ask
    assert.equal(await rowsOf(link), rowsBefore);
  });

  test('opened with no click to write, the thread still checkpoints what the server writes (its commits leave that to the thread)', async () => {
    const storage = c.storage;
    const store = new WorkerClickStore(
      { engine: 'sqlite', maxBuffered: 1_000_000, databaseUrl: url, writeIntervalMs: 20, rollupIntervalMs: 60_000 },
      { onRunning: (running) => storage.checkpointOnCommit(!running) },
    );
    const fileBytes = () => statSync(url.slice('sqlite:'.length)).size;
    try {
      await sql`create table notes (body blob not null)`.execute(storage.db);
      await store.open();
      const before = fileBytes();
      // About 1 500 pages, past SQLite's 1 000 that would make the server's own commit checkpoint.
      for (let i = 0; i < 300; i++) await sql`insert into notes (body) values (zeroblob(16384))`.execute(storage.db);
      // Polled up to a deadline far past the interval: a loaded machine may run the thread late.
      for (const until = Date.now() + 15_000; Date.now() < until && fileBytes() < before + 300 * 16384;)
        await new Promise((r) => setTimeout(r, 20));
      assert.ok(fileBytes() >= before + 300 * 16384, 'the WAL was copied into the database file');
    } finally {
      await store.close();
      await sql`drop table notes`.execute(storage.db);
    }
  });

  describe('held to the click writer contract', () => {
    let store: WorkerClickStore;
    before(() => {
      store = new WorkerClickStore({
        engine: 'sqlite',
        maxBuffered: 1_000_000,
        databaseUrl: url,
        writeIntervalMs: 60_000,
        rollupIntervalMs: 60_000,
      });
    });
    after(() => store.close());
    describeClickWriterContract('WorkerClickStore (SQLite thread)', () => ({
      writer: store,
      link: async () => ({
        id: (await c.links.create(accountId, 'UTC', { url: 'https://example.com/contract' }, TEST_ACTOR)).link.id,
        accountId,
      }),
      deleteLink: async (id) => {
        await c.storage.db.deleteFrom('links').where('id', '=', id).execute();
      },
      state: sqlClickState(c.storage.db),
    }));
  });
});
