// PostgreSQL's daily rollups of the days still getting clicks live in click_rollups_recent (HOT
// updates), the settled days in click_rollups_settled, and click_rollups is the view of both
// (migration 0038): reads sum a key found in both, and a day's rows move once it is settled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import * as recentRollups from '../../../src/adapters/storage/migrations/0038-recent-rollups.ts';
import { migrateToLatest } from '../../../src/adapters/storage/migrations/index.ts';
import { pgClickStatements } from '../../../src/adapters/clicks/postgres/pg-click-statements.ts';
import { RecentRollups } from '../../../src/adapters/storage/stores/recent-rollups.ts';
import { writeRollups } from '../../../src/adapters/clicks/writer/rollup-writes.ts';
import { SqlRollupMonths } from '../../../src/adapters/storage/stores/rollup-months.ts';
import { SqlStatsStore } from '../../../src/adapters/storage/stores/stats-store.ts';
import { RollupWindow } from '../../../src/adapters/clicks/window/rollup-window.ts';
import { aClick } from '../../support/clicks.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';
import { ENGINES } from '../../support/harness.ts';
import { linkRow } from '../../support/link-rows.ts';

const postgres = ENGINES.find((e) => e.name === 'postgres')!;
const OLD = '2026-01-10';
const NEW = '2026-01-20';
const RANGE = { from: '2026-01-01', to: '2026-01-31' };

test(
  'PostgreSQL: the recent days in a table of their own, the settled in another, read as one',
  { skip: postgres.skip ?? false },
  async () => {
    await withEmptyStorage('postgres', async (storage) => {
      const db = storage.db;
      await migrateToLatest(db, 'postgres');
      const account = await db
        .insertInto('accounts')
        .values({ name: 'r', email: 'r@example.com', timezone: 'UTC', created_at: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      const [link] = await db
        .insertInto('links')
        .values([linkRow(account.id, 'r1')])
        .returning('id')
        .execute();
      const linkId = link!.id;
      const window = async (day: string, countries: string[]) => {
        await db.transaction().execute(async (trx) => {
          const w = new RollupWindow();
          w.add(
            countries.map((country, i) =>
              aClick({ linkId, accountId: account.id, day, at: Date.parse(`${day}T10:00:00Z`) + i, country }),
            ),
          );
          await writeRollups(trx, pgClickStatements, w, await pgClickStatements.keepLinks(trx, [linkId]));
        });
      };
      const rowsIn = async (table: 'click_rollups_recent' | 'click_rollups_settled') =>
        Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n);
      // A store a read: one keeps the sums of settled days in memory (docs/design/statistics.md).
      const stats = () => new SqlStatsStore(db, 'postgres', new SqlRollupMonths(db, 'postgres'));
      const countries = async () =>
        Object.fromEntries((await stats().counts(linkId, 'country', RANGE)).map((r) => [r.value, r.count]));

      await window(OLD, ['US', 'US', 'FR']);
      await window(NEW, ['US']);
      await window(OLD, ['FR']);
      assert.ok((await rowsIn('click_rollups_recent')) > 0);
      assert.equal(await rowsIn('click_rollups_settled'), 0, 'the writer writes the recent days only');
      assert.deepEqual(await countries(), { US: 3, FR: 2 });

      // A row inserted into the view lands in the settled table; a key in both tables adds up.
      await db
        .insertInto('click_rollups')
        .values({ link_id: linkId, dimension: 'country', day: OLD, value: 'FR', count: 10 })
        .execute();
      assert.equal(await rowsIn('click_rollups_settled'), 1);
      assert.deepEqual(await countries(), { US: 3, FR: 12 });
      assert.deepEqual(await stats().perDay(linkId, RANGE), [
        { value: OLD, count: 4 },
        { value: NEW, count: 1 },
      ]);

      // The settled day's rows move, the recent day's stay; what is read does not change.
      const recent = new RecentRollups(db);
      assert.ok((await recent.settleBefore('2026-01-15')) > 0);
      assert.equal(
        Number(
          (
            await sql<{ n: string }>`select count(*) as n from click_rollups_recent where day < '2026-01-15'`.execute(
              db,
            )
          ).rows[0]!.n,
        ),
        0,
      );
      assert.ok((await rowsIn('click_rollups_recent')) > 0);
      assert.deepEqual(await countries(), { US: 3, FR: 12 });
      // A late click of a settled day waits in the recent table, read from there, until the next day's move.
      await window(OLD, ['DE']);
      assert.equal(await recent.settleBefore('2026-01-15'), 0, 'once a day per process');
      assert.deepEqual(await countries(), { US: 3, FR: 12, DE: 1 });
      assert.ok((await recent.settleBefore('2026-01-16')) > 0);
      assert.deepEqual(await countries(), { US: 3, FR: 12, DE: 1 });

      // A round's time spent, the move stops after a transaction and goes on at the next round.
      await sql`insert into click_rollups_recent (link_id, dimension, day, value, count)
      select ${linkId}, 'city', '2026-01-17', 'c' || n, 1 from generate_series(1, 25000) as n`.execute(db);
      assert.equal(await recent.settleBefore('2026-01-18', 0), 20_000, 'one transaction, then the time is up');
      assert.equal(await recent.settleBefore('2026-01-18', 0), 5_000, 'the rest, in the next round');
      assert.equal(await recent.settleBefore('2026-01-18', 0), 0);

      // Back to one table and forward again: the same sums.
      await recentRollups.down(db as never, 'postgres');
      assert.deepEqual(await countries(), { US: 3, FR: 12, DE: 1 });
      await recentRollups.up(db as never, 'postgres');
      await window(NEW, ['US']);
      assert.deepEqual(await countries(), { US: 4, FR: 12, DE: 1 });
    });
  },
);
