// The quarterly rollups (migration 0034, docs/design/statistics.md): the upgrade folds the months already folded
// into quarters, in the middle of a pass too; a deleted link's quarters go with it; pruning
// clicks changes no statistic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { MIGRATIONS } from '../../../src/adapters/storage/migrations/index.ts';
import { SqlClickRetention } from '../../../src/adapters/storage/stores/click-retention.ts';
import { SqlStatsStore } from '../../../src/adapters/storage/stores/stats-store.ts';
import { SqlRollupMonths } from '../../../src/adapters/storage/stores/rollup-months.ts';
import { ENGINES } from '../../support/harness.ts';
import {
  LINKS,
  NOW,
  answers,
  assertQuartersAreTheirDays,
  migrateBeforeQuarters,
  withRollups,
} from './rollup-support.ts';

for (const engine of ENGINES) {
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
          // And the later ones, whose tables today's stores use (PostgreSQL's recent rollups, 0038).
          for (const [name, m] of Object.entries(MIGRATIONS))
            if (name >= '0035') await m.up(storage.db as Kysely<unknown>, engine.name);
          for (const i of [1, 2]) await assertQuartersAreTheirDays(storage.db, i, '2026-03');
          for (const i of [3, 4, 5]) await assertQuartersAreTheirDays(storage.db, i, '2025-08');
          const months = new SqlRollupMonths(storage.db, engine.name, { now: () => NOW });
          const store = new SqlStatsStore(storage.db, engine.name, months);
          for (let i = 1; i <= LINKS; i++)
            assert.deepEqual(await answers(store, i), expected[i - 1], `link ${i} after the upgrade`);

          // The pass goes on from link 3; the next one closes 2026's first quarter.
          assert.equal(await months.foldBefore('2026-03', { now: NOW, links: 100, ms: 60_000 }), 3);
          assert.equal(await months.foldBefore('2026-04', { now: NOW, links: 100, ms: 60_000 }), LINKS);
          for (let i = 1; i <= LINKS; i++) await assertQuartersAreTheirDays(storage.db, i, '2026-04');
          for (let i = 1; i <= LINKS; i++)
            assert.deepEqual(await answers(store, i), expected[i - 1], `link ${i} after the passes`);
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
