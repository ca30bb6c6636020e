// The PostgreSQL writer thread (WorkerClickStore → click-writer-worker → ClickWriter over
// PgClickWrites, docs/design/clicks.md) on a real database: what it is handed in columns is written on its
// interval or when asked to settle, counters and rollups with it, the latest rotation kept; with
// the database away it keeps the clicks, tells of the failure once, drops past its bound and says
// how many, and the main thread's meter counts what the thread wrote and dropped.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { handOver, toBatch } from '../../support/click-hand-over.ts';
import { WorkerClickStore } from '../../../src/adapters/clicks/thread/worker-click-store.ts';
import type { WriterData } from '../../../src/adapters/clicks/thread/worker-messages.ts';
import { ClickMeter } from '../../../src/adapters/metrics/click-meter.ts';
import { describeClickWriterContract, sqlClickState } from '../../contracts/click-writer-contract.ts';
import { clickRowsOf, rollupCount, writerClick as click, WRITER_DAY as DAY } from '../../support/clicks.ts';
import { POSTGRES_SKIP, startHarness, type Harness } from '../../support/harness.ts';
import { testDatabaseUrl } from '../../support/test-database-url.ts';
import { TEST_ACTOR } from '../../support/audit-actor.ts';
import { linkCounter } from '../../support/link-rows.ts';

describe('the PostgreSQL writer thread', { skip: POSTGRES_SKIP ?? false }, () => {
  let h: Harness;
  let accountId: number;
  const links: number[] = [];

  before(async () => {
    h = await startHarness('postgres');
    const account = await h.account();
    accountId = account.id;
    for (let i = 0; i < 3; i++)
      links.push(
        (await h.server.container.links.create(accountId, 'UTC', { url: `https://example.com/${i}` }, TEST_ACTOR)).link
          .id,
      );
  });
  after(async () => {
    await h?.close();
  });

  const data = (over: Partial<WriterData> = {}): WriterData => ({
    engine: 'postgres',
    databaseUrl: testDatabaseUrl(),
    schema: h.pgSchema,
    writeIntervalMs: 60_000,
    maxBuffered: 100_000,
    rollupIntervalMs: 60_000,
    ...over,
  });
  const db = () => h.server.container.storage.db;
  const rowsOf = (linkId: number) => clickRowsOf(db(), linkId);
  const linkRow = async (linkId: number) => (await linkCounter(db(), linkId))!;
  const rollup = (linkId: number, dimension: string, value = '') => rollupCount(db(), linkId, DAY, dimension, value);

  test('clicks handed over wait for the interval; settle writes rows, counters, rollups and the latest rotation', async () => {
    const meter = new ClickMeter();
    const store = new WorkerClickStore(data(), { meter });
    try {
      const [a, b] = [links[0]!, links[1]!];
      handOver(
        store,
        toBatch([
          { click: click(a, accountId), rotation: 1 },
          { click: click(a, accountId, { visitor: 'other' }), rotation: 2 },
          { click: click(b, accountId) },
        ]),
      );
      handOver(store, toBatch([{ click: click(a, accountId, { isBot: true, visitor: null }) }]));
      assert.equal(await rowsOf(a), 0, 'written before the interval');
      await store.settle();
      assert.deepEqual([await rowsOf(a), await rowsOf(b)], [3, 1]);
      assert.deepEqual(await linkRow(a), { clicks: 2, last_rotation: 2 });
      assert.equal((await linkRow(b)).clicks, 1);
      assert.deepEqual(
        [await rollup(a, 'total'), await rollup(a, 'unique'), await rollup(a, 'bot'), await rollup(a, 'country', 'US')],
        [2, 2, 1, 2],
      );
      assert.equal(meter.written, 4, 'the thread told the main thread what it wrote');
      assert.ok(meter.flushes.count >= 1);
    } finally {
      await store.close();
    }
  });

  test('the write interval writes without being asked; a stop writes what is left', async () => {
    const link = links[2]!;
    const store = new WorkerClickStore(data({ writeIntervalMs: 20, rollupIntervalMs: 0 }));
    handOver(store, toBatch([{ click: click(link, accountId) }]));
    // Polled up to a deadline far past the interval: a loaded machine may run the thread late.
    for (const until = Date.now() + 15_000; Date.now() < until && (await linkRow(link)).clicks < 1;)
      await new Promise((r) => setTimeout(r, 20));
    assert.equal((await linkRow(link)).clicks, 1);
    handOver(store, toBatch([{ click: click(link, accountId) }, { click: click(link, accountId) }]));
    await store.close();
    assert.deepEqual([await rowsOf(link), (await linkRow(link)).clicks], [3, 3]);
  });

  test('with the database away: the failure told once, clicks past the bound dropped and counted, settle rejects', async () => {
    const meter = new ClickMeter();
    const errors: string[] = [];
    // A port nothing listens on: every connection is refused at once.
    const away = new URL(testDatabaseUrl());
    away.port = '1';
    const store = new WorkerClickStore(data({ databaseUrl: away.href, maxBuffered: 1000, writeIntervalMs: 20 }), {
      onError: (e) => errors.push(String(e)),
      meter,
    });
    try {
      const batch = (n: number) => toBatch(Array.from({ length: n }, () => ({ click: click(links[0]!, accountId) })));
      handOver(store, batch(600));
      handOver(store, batch(600));
      await assert.rejects(store.settle());
      // A hand-over that would pass the bound is dropped whole, and counted.
      assert.equal(meter.dropped, 600, 'the clicks past the bound');
      assert.equal(meter.written, 0);
      assert.equal(errors.filter((e) => /clicks not written/.test(e)).length, 1, errors.join('\n'));
      assert.ok(
        errors.some((e) => /click buffer full/.test(e)),
        errors.join('\n'),
      );
    } finally {
      await store.close();
    }
    assert.ok(
      errors.some((e) => /600 clicks and a rollup window could not be written before the stop/.test(e)),
      errors.join('\n'),
    );
  });

  describe('held to the click writer contract', () => {
    let store: WorkerClickStore;
    before(() => {
      store = new WorkerClickStore(data());
    });
    after(() => store.close());
    describeClickWriterContract('WorkerClickStore (PostgreSQL thread)', () => ({
      writer: store,
      link: async () => ({
        id: (
          await h.server.container.links.create(accountId, 'UTC', { url: 'https://example.com/contract' }, TEST_ACTOR)
        ).link.id,
        accountId,
      }),
      deleteLink: async (id) => {
        await db().deleteFrom('links').where('id', '=', id).execute();
      },
      state: sqlClickState(db()),
    }));
  });
});
