// The monthly rollups (migration 0019, docs/design/statistics.md), with the quarterly ones they fold (migration
// 0034): statistics read the same numbers whether a range's whole months and quarters
// come from the daily rows or from the folded tables, at every point of a pass, and folding
// never counts a day twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqlStatsStore } from '../../../src/adapters/storage/stores/stats-store.ts';
import { SqlRollupMonths } from '../../../src/adapters/storage/stores/rollup-months.ts';
import { ENGINES } from '../../support/harness.ts';
import { LINKS, NOW, answers, assertQuartersAreTheirDays, monthRows, withRollups } from './rollup-support.ts';

for (const engine of ENGINES) {
  test(
    `monthly rollups [${engine.name}]: the same statistics before, during and after a pass, and once more a month on`,
    { skip: engine.skip ?? false },
    async () => {
      await withRollups(engine.name, async (storage, expected) => {
        // Groups of two links whatever the machine's load (a slow step would halve them).
        const months = new SqlRollupMonths(storage.db, engine.name, {
          now: () => NOW,
          maxLinksPerStep: 2,
          stepTargetMs: 60_000,
        });
        const store = new SqlStatsStore(storage.db, engine.name, months);
        const round = { now: NOW, links: 2, ms: 60_000 };

        // The first round starts the pass and folds the first group: links 1 and 2, not 3 to 5.
        assert.equal(await months.foldBefore('2026-03', round), 2);
        assert.equal(await months.foldedBefore(2), '2026-03');
        assert.equal(await months.foldedBefore(3), '0000-01');
        for (let i = 1; i <= LINKS; i++)
          assert.deepEqual(await answers(store, i), expected[i - 1], `link ${i} part way through the pass`);
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
        for (let i = 1; i <= LINKS; i++)
          assert.deepEqual(await answers(store, i), expected[i - 1], `link ${i} after the pass`);
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
        for (let i = 1; i <= LINKS; i++)
          assert.deepEqual(await answers(store, i), expected[i - 1], `link ${i} after March's pass`);
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
        for (let i = 1; i <= LINKS; i++)
          assert.deepEqual(await answers(store, i), expected[i - 1], `link ${i} after April's pass`);
      });
    },
  );

  test(
    `monthly rollups [${engine.name}]: no folding while a dead click writer's batches wait to be rolled up`,
    { skip: engine.skip ?? false },
    async () => {
      await withRollups(engine.name, async (storage, expected) => {
        const months = new SqlRollupMonths(storage.db, engine.name, { now: () => NOW });
        const store = new SqlStatsStore(storage.db, engine.name, months);
        await storage.db
          .insertInto('click_batches_pending')
          .values({ owner: 'gone', first_click_id: 1, last_click_id: 2 })
          .execute();
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
    },
  );

  test(
    `monthly rollups [${engine.name}]: instances folding at once fold each link once`,
    { skip: engine.skip ?? false },
    async () => {
      await withRollups(engine.name, async (storage, expected) => {
        const folders = [1, 2, 3].map(
          () => new SqlRollupMonths(storage.db, engine.name, { now: () => NOW, maxLinksPerStep: 1 }),
        );
        const done = await Promise.all(
          folders.map((f) => f.foldBefore('2026-04', { now: NOW, links: 100, ms: 60_000 })),
        );
        assert.equal(
          done.reduce((a, b) => a + b, 0),
          LINKS,
        );
        const store = new SqlStatsStore(storage.db, engine.name, new SqlRollupMonths(storage.db, engine.name));
        for (let i = 1; i <= LINKS; i++) assert.deepEqual(await answers(store, i), expected[i - 1]);
        for (let i = 1; i <= LINKS; i++) await assertQuartersAreTheirDays(storage.db, i, '2026-04');
      });
    },
  );
}
