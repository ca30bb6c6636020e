// The click writer's rollup window (docs/design/clicks.md), in process on both engines
// (PostgreSQL, and an in-memory SQLite database): rows are written with every batch; the links'
// counters and rotation positions, rollups and visitor marks are summed across batches and
// written together on settle(), when the interval has passed, and at once while the window is
// small. A window write that fails is
// put back and written once later: never lost, never counted twice.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ColumnarClickSink } from '../../../src/adapters/clicks/sink/columnar-click-sink.ts';
import { InProcessClickWriter } from '../../../src/adapters/clicks/thread/in-process-click-writer.ts';
import { toBatch, writeDue } from '../../support/click-hand-over.ts';
import type { Click } from '../../../src/core/clicks/click.ts';
import { PROMPT_WINDOW_ROWS } from '../../../src/adapters/clicks/window/window-policy.ts';
import { ENGINES } from '../../support/harness.ts';
import { openClickDb, type ClickDb } from './click-db.ts';

const DAY = '2026-11-24';
const COUNTRIES = ['DE', 'US', 'FR', null];
const BROWSERS = ['Firefox', 'Chrome', 'Safari'];

/** Click i of a test's traffic over `links`: every tenth a bot, visitors seen again now and then. */
function clickOf(i: number, links: readonly number[], accountId: number): Click {
  return {
    linkId: links[i % links.length]!,
    accountId,
    at: Date.parse(`${DAY}T10:00:00Z`) + i,
    day: DAY,
    hour: i % 24,
    visitor: i % 10 === 0 ? null : `v${i % 37}`,
    country: COUNTRIES[i % 4]!,
    city: null,
    browser: BROWSERS[i % 3]!,
    platform: 'Linux',
    device: 'desktop',
    language: i % 2 ? 'de' : 'en',
    referrerHost: `r${i % 7}.example`,
    isBot: i % 10 === 0,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const engine of ENGINES) {
  describe(`the click writer's rollup window [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    let db: ClickDb;

    before(async () => {
      db = await openClickDb(engine.name);
    });
    after(async () => {
      await db?.close();
    });

    /** A store with a window of `windowMs`; its failures where no caller waits are kept. */
    const storeWith = (windowMs: number) => {
      const failures: unknown[] = [];
      const resumed: string[] = [];
      const store = InProcessClickWriter.over(db.storage, {
        windowMs,
        onError: (error) => failures.push(error),
        onResumed: (message) => resumed.push(message),
      });
      // Opened as a server opens it: its statements prepared now, before a test moves a table away.
      void store.open();
      return { store, failures, resumed };
    };

    /** Writes clicks first..first+count-1 in batches of `size`, each click rotated at its index. */
    const write = async (
      store: InProcessClickWriter,
      links: readonly number[],
      first: number,
      count: number,
      size = 200,
    ) => {
      for (let i = first; i < first + count; i += size) {
        const n = Math.min(size, first + count - i);
        await writeDue(
          store,
          toBatch(
            Array.from({ length: n }, (_, k) => ({ click: clickOf(i + k, links, db.accountId), rotation: i + k })),
          ),
        );
      }
    };

    /** What the tables hold for these links, and what the clicks 0..count-1 should have left there. */
    const totals = async (links: readonly number[]) => {
      const { rows } = await sql<{
        clicks: number;
        rows: number;
        total: number;
        bots: number;
        unique: number;
        marks: number;
        rotations: number;
      }>`
        select ((select coalesce(sum(clicks), 0) from links where id in (${sql.join(links)})) + (select coalesce(sum(clicks), 0) from link_click_counts where link_id in (${sql.join(links)}))) as clicks,
               (select sum(coalesce(p.last_rotation, l.last_rotation)) from links l left join link_click_counts p on p.link_id = l.id
                 where l.id in (${sql.join(links)})) as rotations,
               (select count(*) from clicks where link_id in (${sql.join(links)})) as rows,
               (select coalesce(sum(count), 0) from click_rollups where dimension = 'total' and link_id in (${sql.join(links)})) as total,
               (select coalesce(sum(count), 0) from click_rollups where dimension = 'bot' and link_id in (${sql.join(links)})) as bots,
               (select coalesce(sum(count), 0) from click_rollups where dimension = 'unique' and link_id in (${sql.join(links)})) as "unique",
               (select count(*) from click_visitors where link_id in (${sql.join(links)})) as marks`.execute(
        db.storage.db,
      );
      const r = rows[0]!;
      return {
        clicks: Number(r.clicks),
        rows: Number(r.rows),
        total: Number(r.total),
        bots: Number(r.bots),
        unique: Number(r.unique),
        marks: Number(r.marks),
        rotations: Number(r.rotations),
      };
    };
    const expected = (links: readonly number[], count: number) => {
      const humans = Array.from({ length: count }, (_, i) => i).filter((i) => i % 10 !== 0).length;
      const visitors = new Set(
        Array.from({ length: count }, (_, i) => i)
          .filter((i) => i % 10 !== 0)
          .map((i) => `${links[i % links.length]} v${i % 37}`),
      );
      // Each link's last position is the index of its last click.
      const rotations = links.reduce((sum, _, k) => sum + (count - links.length + k), 0);
      return {
        clicks: humans,
        rows: count,
        total: humans,
        bots: count - humans,
        unique: visitors.size,
        marks: visitors.size,
        rotations,
      };
    };
    const breakdown = async (links: readonly number[]) => {
      const rows = await db.storage.db
        .selectFrom('click_rollups')
        .select(['dimension', 'value'])
        .select((eb) => eb.fn.sum<number>('count').as('n'))
        .where('link_id', 'in', [...links])
        .groupBy(['dimension', 'value'])
        .execute();
      return Object.fromEntries(rows.map((r) => [`${r.dimension}:${r.value}`, Number(r.n)]));
    };

    test('heavy traffic: rows written with every batch, counters and rollups held until settle(), then exact', async () => {
      const links = await db.links(300);
      const { store, failures } = storeWith(60_000);
      await write(store, links, 0, 3000);
      const held = await totals(links);
      assert.ok(store.windowRows >= PROMPT_WINDOW_ROWS, `the window holds ${store.windowRows} rows`);
      const want = expected(links, 3000);
      assert.equal(held.rows, want.rows, 'rows are never held back');
      assert.ok(
        held.clicks < want.clicks,
        `counters are held in the window (${held.clicks} of ${want.clicks} written)`,
      );
      assert.ok(held.total < want.total, `rollups are held in the window (${held.total} of ${want.total} written)`);
      assert.equal(held.total, held.clicks, 'counters and rollups are written together');

      await store.settle();
      assert.equal(store.windowRows, 0);
      assert.deepEqual(await totals(links), want);
      const sums = await breakdown(links);
      assert.equal(sums['country:DE']! + sums['country:US']! + sums['country:FR']! + sums['country:']!, want.total);
      assert.equal(
        sums['referrer:r3.example'],
        Array.from({ length: 3000 }, (_, i) => i).filter((i) => i % 10 !== 0 && i % 7 === 3).length,
      );
      assert.deepEqual(failures, []);
    });

    test("a capped link's clicks are counted with their rows; the others' wait with the window", async () => {
      const links = await db.links(300);
      const capped = links.filter((_, k) => k % 3 === 1);
      await db.cap(capped);
      const { store, failures } = storeWith(60_000);
      await write(store, links, 0, 3000);
      // Click i goes to links[i % 300], and every tenth is a bot's.
      const humansOf = (ids: readonly number[]) => {
        const of = new Set(ids);
        return Array.from({ length: 3000 }, (_, i) => i).filter((i) => i % 10 !== 0 && of.has(links[i % links.length]!))
          .length;
      };
      const sumOf = async (ids: readonly number[]) =>
        Number(
          (
            await db.storage.db
              .selectFrom('links')
              .select((eb) =>
                eb.fn
                  .sum<number>(
                    sql`clicks + coalesce((select p.clicks from link_click_counts p where p.link_id = links.id), 0)`,
                  )
                  .as('n'),
              )
              .where('id', 'in', ids)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const others = links.filter((id) => !capped.includes(id));
      assert.equal(await sumOf(capped), humansOf(capped), 'the capped links are exact after every batch');
      assert.ok((await sumOf(others)) < humansOf(others), 'the others are held in the window');
      await store.settle();
      assert.equal(await sumOf(capped), humansOf(capped), 'and not counted again by the window');
      assert.equal(await sumOf(others), humansOf(others));
      assert.deepEqual(await totals(links), expected(links, 3000));
      assert.deepEqual(failures, []);
    });

    test('through ColumnarClickSink: flush() ends with the window written, so statistics read after it are exact', async () => {
      const links = await db.links(300);
      const { store, failures } = storeWith(60_000);
      const sink = new ColumnarClickSink(store, { intervalMs: 1000, maxBatch: 500 });
      for (let i = 0; i < 3000; i++) sink.record(clickOf(i, links, db.accountId), i);
      await sink.flush();
      assert.equal(store.windowRows, 0);
      assert.deepEqual(await totals(links), expected(links, 3000));
      await sink.close();
      assert.deepEqual(failures, []);
    });

    test('light traffic: a window smaller than the prompt size is written with its batch', async () => {
      const links = await db.links(3);
      const { store, failures } = storeWith(60_000);
      await write(store, links, 0, 20, 20);
      assert.equal(store.windowRows, 0);
      assert.deepEqual(await totals(links), expected(links, 20));
      assert.deepEqual(failures, []);
    });

    test('the interval passed with no batch after: the window is written by itself', async () => {
      const links = await db.links(300);
      const { store, failures } = storeWith(2000);
      await write(store, links, 0, 3000);
      const want = expected(links, 3000);
      assert.ok((await totals(links)).total < want.total, 'held after the last batch');
      const deadline = Date.now() + 15_000;
      let got = await totals(links);
      while (got.total < want.total && Date.now() < deadline) {
        await sleep(100);
        got = await totals(links);
      }
      assert.deepEqual(got, want, 'written within the interval, without a batch or a settle');
      assert.equal(store.windowRows, 0);
      assert.deepEqual(failures, []);
    });

    test('interval 0: rows, counters and rollups agree after every batch', async () => {
      const links = await db.links(300);
      const { store, failures } = storeWith(0);
      await write(store, links, 0, 1000, 500);
      assert.equal(store.windowRows, 0);
      assert.deepEqual(await totals(links), expected(links, 1000));
      assert.deepEqual(failures, []);
    });

    test('a failed window write is put back and written once later: never lost, never counted twice', async () => {
      const links = await db.links(300);
      const { store, failures, resumed } = storeWith(60_000);
      // The rollup table away: the window's transaction inserts the visitor marks, then fails on
      // the rollups, and must undo the marks too (else their `unique` would be lost on retry).
      // PostgreSQL's writer writes the recent days' table (migration 0038).
      const table = sql.table(db.storage.engine === 'postgres' ? 'click_rollups_recent' : 'click_rollups');
      await sql`alter table ${table} rename to click_rollups_away`.execute(db.storage.db);
      try {
        await write(store, links, 0, 20, 20); // a small window: written with its batch, and failing
        assert.equal(failures.length, 1, "the failure is reported, not thrown: the batch's rows are written");
        await write(store, links, 20, 20, 20); // fails again: the same outage, not told again
        assert.equal(failures.length, 1, 'told once an outage');
        await write(store, links, 40, 2960);
        await assert.rejects(store.settle(), 'settle() says the window could not be written');
        const { rows } = await sql<{ clicks: number; rows: number; marks: number }>`
          select ((select coalesce(sum(clicks), 0) from links where id in (${sql.join(links)})) + (select coalesce(sum(clicks), 0) from link_click_counts where link_id in (${sql.join(links)}))) as clicks,
                 (select count(*) from clicks where link_id in (${sql.join(links)})) as rows,
                 (select count(*) from click_visitors where link_id in (${sql.join(links)})) as marks`.execute(
          db.storage.db,
        );
        const want = expected(links, 3000);
        assert.deepEqual(
          [rows[0]!.rows, rows[0]!.clicks, rows[0]!.marks].map(Number),
          [want.rows, 0, 0],
          'rows once each; no counter and no mark outlives the failed transaction',
        );
      } finally {
        await sql`alter table click_rollups_away rename to ${sql.raw(db.storage.engine === 'postgres' ? 'click_rollups_recent' : 'click_rollups')}`.execute(
          db.storage.db,
        );
      }
      // More clicks join what was kept back; the next write has them all, once.
      await write(store, links, 3000, 10, 10);
      await store.settle();
      assert.deepEqual(await totals(links), expected(links, 3010));
      assert.equal(store.windowRows, 0);
      assert.equal(resumed.length, 1, 'the end of the outage is told once');
      assert.match(resumed[0]!, /written again after \d+ failed attempts/);
    });

    test('a link deleted while its rollups wait in the window: they are dropped, the others written', async () => {
      const links = await db.links(300);
      const { store, failures } = storeWith(60_000);
      await write(store, links, 0, 3000);
      // Link 1 (link 0 has only bots' clicks).
      const gone = links[1]!;
      const kept = links.filter((id) => id !== gone);
      await db.storage.db.deleteFrom('click_visitors').where('link_id', '=', gone).execute();
      await db.storage.db.deleteFrom('clicks').where('link_id', '=', gone).execute();
      await db.storage.db.deleteFrom('links').where('id', '=', gone).execute();
      await store.settle();
      const { rows } = await sql<{
        n: number;
      }>`select count(*) as n from click_rollups where link_id = ${gone}`.execute(db.storage.db);
      assert.equal(Number(rows[0]!.n), 0);
      const all = expected(links, 3000);
      const got = await totals(kept);
      assert.equal(got.total, got.clicks, "the remaining links' rollups match their counters");
      assert.equal(got.total, all.total - 10, "all but the deleted link's ten human clicks");
      assert.deepEqual(failures, []);
    });
  });
}
