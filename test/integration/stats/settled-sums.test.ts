// The settled rows' sums kept in memory (docs/design/statistics.md): a value list read through them answers what the
// database sums from the daily rows, on a first read and from the kept sums, folded or not; the
// days not yet settled are read each time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqlStatsStore } from '../../../src/adapters/storage/stores/stats-store.ts';
import { SqlRollupMonths } from '../../../src/adapters/storage/stores/rollup-months.ts';
import { ENGINES } from '../../support/harness.ts';
import { LINKS, NOW, answers, withRollups } from './rollup-support.ts';

for (const engine of ENGINES) {
  test(
    `settled sums [${engine.name}]: kept sums answer as the daily rows do; a day not settled is read again`,
    { skip: engine.skip ?? false },
    async () => {
      await withRollups(engine.name, async (storage, expected) => {
        // Daily rows alone, every day settled (a year later): the kept sums are the days'.
        const later = new SqlStatsStore(storage.db, engine.name, new SqlRollupMonths(storage.db, engine.name), {
          now: () => NOW + 365 * 86_400_000,
        });
        for (let i = 1; i <= LINKS; i++) {
          assert.deepEqual(await answers(later, i), expected[i - 1], `link ${i}, first read`);
          assert.deepEqual(await answers(later, i), expected[i - 1], `link ${i}, from the kept sums`);
        }
        // Folded months and quarters, and the days since 2026-04-07 not settled on 2026-04-10.
        const months = new SqlRollupMonths(storage.db, engine.name, { now: () => NOW });
        assert.equal(await months.foldBefore('2026-04', { now: NOW, links: 100, ms: 60_000 }), LINKS);
        const store = new SqlStatsStore(storage.db, engine.name, months, { now: () => NOW });
        for (let i = 1; i <= LINKS; i++) {
          assert.deepEqual(await answers(store, i), expected[i - 1], `link ${i} folded, first read`);
          assert.deepEqual(await answers(store, i), expected[i - 1], `link ${i} folded, from the kept sums`);
        }
        // A click of 2026-04-08 (not settled) counts at once; the reference sums every row afresh.
        await storage.db
          .insertInto('click_rollups')
          .values({ link_id: 1, dimension: 'referrer', day: '2026-04-08', value: 'delta.example', count: 100_000 })
          .execute();
        const reference = new SqlStatsStore(storage.db, engine.name, new SqlRollupMonths(storage.db, engine.name), {
          now: () => 0,
        });
        const range = { from: '2025-01-15', to: '2026-04-09' };
        const top = await store.breakdown(1, 'referrer', range, { order: 'max', page: { page: 1, perPage: 2 } });
        assert.deepEqual(
          top,
          await reference.breakdown(1, 'referrer', range, { order: 'max', page: { page: 1, perPage: 2 } }),
        );
        assert.deepEqual(top.items[0], { value: 'delta.example', count: 100_000 });
      });
    },
  );
}
