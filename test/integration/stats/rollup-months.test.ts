// The monthly and quarterly rollups (migrations 0019 and 0034, ADRs 40 and 75): statistics read
// the same numbers whether a range's whole months and quarters come from the daily rows or from
// the folded monthly and quarterly ones, at every point of a pass, after an upgrade and after a
// link's deletion, and folding never counts a day twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { MIGRATIONS, migrateToLatest } from '../../../src/adapters/storage/migrations/index.ts';
import { SqlClickRetention } from '../../../src/adapters/storage/stores/click-retention.ts';
import { SqlStatsStore } from '../../../src/adapters/storage/stores/stats-store.ts';
import { SqlRollupMonths } from '../../../src/adapters/storage/stores/rollup-months.ts';
import type { Storage } from '../../../src/adapters/storage/connect.ts';
import type { Database } from '../../../src/adapters/storage/schema.ts';
import type { DayRange } from '../../../src/core/stats/range.ts';
import { addDays } from '../../../src/core/stats/range.ts';
import { quarterOf } from '../../../src/core/stats/rollup-months.ts';
import { ENGINES } from '../../support/harness.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';
import { linkRow } from '../../support/link-rows.ts';

const NOW = Date.parse('2026-04-10T00:00:00Z');
const FIRST_DAY = '2024-12-20';
const LAST_DAY = '2026-04-09';
const LINKS = 5;

const RANGES: DayRange[] = [
  { from: FIRST_DAY, to: LAST_DAY }, // partial months at both ends, whole months and quarters between
  { from: '2025-12-01', to: '2026-02-28' }, // whole months only, over a year's end
  { from: '2025-12-15', to: '2026-01-31' }, // a partial month, then a whole one
  { from: '2026-01-10', to: '2026-01-20' }, // within a month
  { from: '2026-02-01', to: '2026-04-09' }, // whole months, then the month being written
  { from: '2025-01-01', to: '2025-12-31' }, // whole quarters only
  { from: '2025-03-31', to: '2025-10-01' }, // a day either side of two whole quarters
  { from: '2025-02-01', to: '2026-03-31' }, // months, quarters over a year's end, the last one folded last
  ...randomRanges(12),
];

/** Ranges from a fixed seed (the same every run), within the rows and a little beyond them. */
function randomRanges(n: number): DayRange[] {
  let seed = 0x5eed;
  const random = (max: number): number => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed % max;
  };
  return Array.from({ length: n }, () => {
    const from = addDays('2024-12-01', random(480));
    return { from, to: addDays(from, random(500)) };
  });
}

/** A few values a day in every kind of dimension, differing by link and day, some days without any. */
function dailyRows(linkId: number): Array<[number, string, string, string, number]> {
  const rows: Array<[number, string, string, string, number]> = [];
  for (let day = FIRST_DAY, n = 0; day <= LAST_DAY; day = addDays(day, 1), n++) {
    if ((n + linkId) % 5 === 0) continue;
    const base = ((n * 7 + linkId * 3) % 11) + 1;
    rows.push([linkId, 'total', day, '', base * 3]);
    rows.push([linkId, 'unique', day, '', base]);
    rows.push([linkId, 'bot', day, '', n % 3]);
    rows.push([linkId, 'hour', day, String(n % 24).padStart(2, '0'), base * 3]);
    rows.push([linkId, 'country', day, ['FR', 'DE', ''][n % 3]!, base * 2]);
    rows.push([linkId, 'country', day, 'SE', base]);
    rows.push([linkId, 'referrer', day, ['Alpha.example', 'beta.example', 'gamma.example', ''][(n + linkId) % 4]!, base * 3]);
  }
  return rows.filter((r) => r[4] > 0);
}

async function insertDaily(db: Kysely<Database>, rows: Array<[number, string, string, string, number]>): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500).map(([link_id, dimension, day, value, count]) => ({ link_id, dimension, day, value, count }));
    await db.insertInto('click_rollups').values(chunk).execute();
  }
}

/** Everything the statistics answer for a link over every range. */
async function answers(store: SqlStatsStore, linkId: number): Promise<unknown[]> {
  const all: unknown[] = [];
  for (const range of RANGES) {
    all.push(
      await store.summary(linkId, range),
      await store.perDay(linkId, range),
      sorted(await store.counts(linkId, 'hour', range)),
      await store.breakdown(linkId, 'country', range, { order: 'max', page: { page: 1, perPage: 2 } }),
      await store.breakdown(linkId, 'country', range, { order: 'min', page: { page: 2, perPage: 2 } }),
      await store.breakdown(linkId, 'country', range, { order: 'value', page: { page: 9, perPage: 2 } }),
      await store.breakdown(linkId, 'referrer', range, { order: 'max', search: 'ALPHA', page: null }),
      await store.breakdown(linkId, 'referrer', range, { order: 'value', page: null }),
    );
  }
  return all;
}

const sorted = (rows: Array<{ value: string | null; count: number }>) => [...rows].sort((a, b) => String(a.value).localeCompare(String(b.value)));

async function monthRows(db: Kysely<Database>, table: 'click_rollup_months' | 'click_rollup_quarters' = 'click_rollup_months'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A link's quarterly rows are the sums of its daily rows over every quarter wholly folded, and only those. */
async function assertQuartersAreTheirDays(db: Kysely<Database>, linkId: number, foldedBefore: string): Promise<void> {
  const key = (dimension: string, quarter: string, value: string) => `${dimension} ${quarter} ${value}`;
  const fromDays = new Map<string, number>();
  const days = await db.selectFrom('click_rollups').select(['dimension', 'day', 'value', 'count']).where('link_id', '=', linkId).execute();
  for (const r of days) {
    const quarter = quarterOf(r.day.slice(0, 7));
    if (quarter >= quarterOf(foldedBefore)) continue;
    const k = key(r.dimension, quarter, r.value);
    fromDays.set(k, (fromDays.get(k) ?? 0) + Number(r.count));
  }
  const quarters = await db.selectFrom('click_rollup_quarters').select(['dimension', 'quarter', 'value', 'count']).where('link_id', '=', linkId).execute();
  const folded = new Map(quarters.map((r) => [key(r.dimension, r.quarter, r.value), Number(r.count)]));
  assert.deepEqual([...folded].sort(), [...fromDays].sort(), `link ${linkId}'s quarters folded before ${foldedBefore}`);
}

/** Every migration before 0034: a database as the release before the quarterly rollups left it. */
async function migrateBeforeQuarters(storage: Storage): Promise<void> {
  const ordered = Object.entries(MIGRATIONS).sort(([a], [b]) => a.localeCompare(b));
  for (const [name, m] of ordered) if (name < '0034') await m.up(storage.db as Kysely<unknown>, storage.engine);
}

async function withRollups(
  engine: 'sqlite' | 'postgres',
  fn: (storage: Storage, expected: unknown[][]) => Promise<void>,
  migrate: (storage: Storage) => Promise<unknown> = (storage) => migrateToLatest(storage.db, engine),
): Promise<void> {
  await withEmptyStorage(engine, async (storage) => {
    await migrate(storage);
    await sql`insert into accounts (name, email, timezone, created_at) values ('a', 'a@example.com', 'UTC', 0)`.execute(storage.db);
    for (let i = 1; i <= LINKS; i++)
      await storage.db
        .insertInto('links')
        .values(linkRow(1, `l${i}`))
        .execute();
    for (let i = 1; i <= LINKS; i++) await insertDaily(storage.db, dailyRows(i));
    const unfolded = new SqlStatsStore(storage.db, engine, new SqlRollupMonths(storage.db, engine));
    const expected: unknown[][] = [];
    for (let i = 1; i <= LINKS; i++) expected.push(await answers(unfolded, i));
    await fn(storage, expected);
  });
}

for (const engine of ENGINES) {
  test(`monthly rollups [${engine.name}]: the same statistics before, during and after a pass, and once more a month on`, { skip: engine.skip ?? false }, async () => {
    await withRollups(engine.name, async (storage, expected) => {
      // Groups of two links whatever the machine's load (a slow step would halve them).
      const months = new SqlRollupMonths(storage.db, engine.name, { now: () => NOW, maxLinksPerStep: 2, stepTargetMs: 60_000 });
      const store = new SqlStatsStore(storage.db, engine.name, months);
      const round = { now: NOW, links: 2, ms: 60_000 };

      // The first round starts the pass and folds the first group: links 1 and 2, not 3 to 5.
      assert.equal(await months.foldBefore('2026-03', round), 2);
      assert.equal(await months.foldedBefore(2), '2026-03');
      assert.equal(await months.foldedBefore(3), '0000-01');
      for (let i = 1; i <= LINKS; i++) assert.deepEqual(await answers(store, i), expected[i - 1], `link ${i} part way through the pass`);
      await assertQuartersAreTheirDays(storage.db, 2, '2026-03');
      await assertQuartersAreTheirDays(storage.db, 3, '0000-01');

      // A round past its time folds no further group once it has folded one.
      assert.equal(await months.foldBefore('2026-03', { now: NOW, links: 100, ms: 0 }), 2);
      assert.equal(await months.foldedBefore(4), '2026-03');
      assert.equal(await months.foldedBefore(5), '0000-01');
      assert.equal(await months.foldBefore('2026-03', { now: NOW, links: 100, ms: 60_000 }), 1);
      assert.equal(await months.foldedBefore(5), '2026-03');
      const folded = await monthRows(storage.db);
      assert.ok(folded > 0);
      for (let i = 1; i <= LINKS; i++) assert.deepEqual(await answers(store, i), expected[i - 1], `link ${i} after the pass`);
      for (let i = 1; i <= LINKS; i++) await assertQuartersAreTheirDays(storage.db, i, '2026-03');
      const quarters = await monthRows(storage.db, 'click_rollup_quarters');

      // Nothing more to fold before March: nothing is folded twice.
      assert.equal(await months.foldBefore('2026-03', round), 0);
      assert.equal(await monthRows(storage.db), folded);
      assert.equal(await monthRows(storage.db, 'click_rollup_quarters'), quarters);

      // A month on, the next pass folds March alone.
      assert.equal(await months.foldBefore('2026-04', { now: NOW, links: 100, ms: 60_000 }), LINKS);
      assert.equal(await months.foldedBefore(1), '2026-04');
      assert.ok((await monthRows(storage.db)) > folded);
      for (let i = 1; i <= LINKS; i++) assert.deepEqual(await answers(store, i), expected[i - 1], `link ${i} after March's pass`);
      // March closes the first quarter of 2026: summed from January and February's rows of the earlier pass too.
      for (let i = 1; i <= LINKS; i++) await assertQuartersAreTheirDays(storage.db, i, '2026-04');
      assert.ok((await monthRows(storage.db, 'click_rollup_quarters')) > quarters);

      const march = await storage.db
        .selectFrom('click_rollup_months')
        .select(['month', (eb) => eb.fn.sum<number | string>('count').as('count')])
        .where('link_id', '=', 1)
        .where('dimension', '=', 'total')
        .groupBy('month')
        .orderBy('month')
        .execute();
      const daily = await storage.db
        .selectFrom('click_rollups')
        .select((eb) => eb.fn.sum<number | string>('count').as('count'))
        .where('link_id', '=', 1)
        .where('dimension', '=', 'total')
        .where('day', '>=', '2026-03-01')
        .where('day', '<=', '2026-03-31')
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        march.map((m) => m.month),
        [
          '2024-12',
          '2025-01',
          '2025-02',
          '2025-03',
          '2025-04',
          '2025-05',
          '2025-06',
          '2025-07',
          '2025-08',
          '2025-09',
          '2025-10',
          '2025-11',
          '2025-12',
          '2026-01',
          '2026-02',
          '2026-03',
        ],
      );
      assert.equal(Number(march.at(-1)!.count), Number(daily.count));

      // April's pass closes no quarter: the quarterly rows stay as they were.
      const closed = await monthRows(storage.db, 'click_rollup_quarters');
      assert.equal(await months.foldBefore('2026-05', { now: NOW, links: 100, ms: 60_000 }), LINKS);
      assert.equal(await monthRows(storage.db, 'click_rollup_quarters'), closed);
      for (let i = 1; i <= LINKS; i++) await assertQuartersAreTheirDays(storage.db, i, '2026-05');
      for (let i = 1; i <= LINKS; i++) assert.deepEqual(await answers(store, i), expected[i - 1], `link ${i} after April's pass`);
    });
  });

  test(`monthly rollups [${engine.name}]: no folding while a dead click writer's batches wait to be rolled up`, { skip: engine.skip ?? false }, async () => {
    await withRollups(engine.name, async (storage, expected) => {
      const months = new SqlRollupMonths(storage.db, engine.name, { now: () => NOW });
      const store = new SqlStatsStore(storage.db, engine.name, months);
      await storage.db.insertInto('click_batches_pending').values({ owner: 'gone', first_click_id: 1, last_click_id: 2 }).execute();
      assert.equal(await months.foldBefore('2026-03', { now: NOW, links: 100, ms: 60_000 }), 0);
      assert.equal(await months.foldedBefore(1), '0000-01');
      assert.equal(await monthRows(storage.db), 0);

      // Its writer is alive after all (a lease still running): folding goes on.
      await storage.db
        .insertInto('click_writers')
        .values({ owner: 'gone', lease_until: NOW + 1 })
        .execute();
      assert.equal(await months.foldBefore('2026-03', { now: NOW, links: 100, ms: 60_000 }), LINKS);
      for (let i = 1; i <= LINKS; i++) assert.deepEqual(await answers(store, i), expected[i - 1]);
    });
  });

  test(`monthly rollups [${engine.name}]: instances folding at once fold each link once`, { skip: engine.skip ?? false }, async () => {
    await withRollups(engine.name, async (storage, expected) => {
      const folders = [1, 2, 3].map(() => new SqlRollupMonths(storage.db, engine.name, { now: () => NOW, maxLinksPerStep: 1 }));
      const done = await Promise.all(folders.map((f) => f.foldBefore('2026-04', { now: NOW, links: 100, ms: 60_000 })));
      assert.equal(
        done.reduce((a, b) => a + b, 0),
        LINKS,
      );
      const store = new SqlStatsStore(storage.db, engine.name, new SqlRollupMonths(storage.db, engine.name));
      for (let i = 1; i <= LINKS; i++) assert.deepEqual(await answers(store, i), expected[i - 1]);
      for (let i = 1; i <= LINKS; i++) await assertQuartersAreTheirDays(storage.db, i, '2026-04');
    });
  });

  test(
    `quarterly rollups [${engine.name}]: the upgrade folds the months already folded into quarters, in the middle of a pass too`,
    { skip: engine.skip ?? false },
    async () => {
      await withRollups(
        engine.name,
        async (storage, expected) => {
          // As 0019's folding left it: every link's months before August 2025 (July's quarter not
          // whole), and a pass to March 2026 through links 1 and 2.
          const foldMonths = (links: [number, number], from: string, before: string) =>
            sql`insert into click_rollup_months (link_id, dimension, month, value, count)
            select link_id, dimension, substr(day, 1, 7), value, sum(count) from click_rollups
            where link_id >= ${links[0]} and link_id <= ${links[1]} and day >= ${`${from}-01`} and day < ${`${before}-01`}
            group by link_id, dimension, substr(day, 1, 7), value`.execute(storage.db);
          await foldMonths([1, LINKS], '0000-01', '2025-08');
          await foldMonths([1, 2], '2025-08', '2026-03');
          await storage.db
            .updateTable('rollup_month_folds')
            .set({ folded_before: '2025-08', pass_to: '2026-03', pass_last_link_id: LINKS, through_link_id: 2 })
            .execute();

          await MIGRATIONS['0034-rollup-quarters']!.up(storage.db as Kysely<unknown>, engine.name);
          for (const i of [1, 2]) await assertQuartersAreTheirDays(storage.db, i, '2026-03');
          for (const i of [3, 4, 5]) await assertQuartersAreTheirDays(storage.db, i, '2025-08');
          const months = new SqlRollupMonths(storage.db, engine.name, { now: () => NOW });
          const store = new SqlStatsStore(storage.db, engine.name, months);
          for (let i = 1; i <= LINKS; i++) assert.deepEqual(await answers(store, i), expected[i - 1], `link ${i} after the upgrade`);

          // The pass goes on from link 3; the next one closes 2026's first quarter.
          assert.equal(await months.foldBefore('2026-03', { now: NOW, links: 100, ms: 60_000 }), 3);
          assert.equal(await months.foldBefore('2026-04', { now: NOW, links: 100, ms: 60_000 }), LINKS);
          for (let i = 1; i <= LINKS; i++) await assertQuartersAreTheirDays(storage.db, i, '2026-04');
          for (let i = 1; i <= LINKS; i++) assert.deepEqual(await answers(store, i), expected[i - 1], `link ${i} after the passes`);
        },
        migrateBeforeQuarters,
      );
    },
  );

  test(
    `quarterly rollups [${engine.name}]: a deleted link's quarters go with it; pruning clicks leaves every statistic as it was`,
    { skip: engine.skip ?? false },
    async () => {
      await withRollups(engine.name, async (storage, expected) => {
        const months = new SqlRollupMonths(storage.db, engine.name, { now: () => NOW });
        assert.equal(await months.foldBefore('2026-04', { now: NOW, links: 100, ms: 60_000 }), LINKS);
        const rowsOf = async (table: 'click_rollup_months' | 'click_rollup_quarters', linkId: number) =>
          Number(
            (
              await storage.db
                .selectFrom(table)
                .select((eb) => eb.fn.countAll<number | string>().as('n'))
                .where('link_id', '=', linkId)
                .executeTakeFirstOrThrow()
            ).n,
          );
        assert.ok((await rowsOf('click_rollup_quarters', LINKS)) > 0);

        await storage.db.deleteFrom('links').where('id', '=', LINKS).execute();
        assert.equal(await rowsOf('click_rollup_months', LINKS), 0);
        assert.equal(await rowsOf('click_rollup_quarters', LINKS), 0);
        await new SqlClickRetention(storage.db, engine.name).prune(NOW, '2026-04-09');

        const store = new SqlStatsStore(storage.db, engine.name, months);
        for (let i = 1; i < LINKS; i++) {
          await assertQuartersAreTheirDays(storage.db, i, '2026-04');
          assert.deepEqual(await answers(store, i), expected[i - 1], `link ${i}`);
        }
      });
    },
  );
}
