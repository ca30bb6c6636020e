// An account's clicks per day (migration 0010) are its links' `total` rollups, kept as the
// rollups are written: by triggers on SQLite, by the click writer's own statement on PostgreSQL
// (migration 0036).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { migrationsUpTo } from '../../support/migrations.ts';
import { MIGRATIONS } from '../../../src/adapters/storage/migrations/index.ts';
import * as linkClickCounts from '../../../src/adapters/storage/migrations/0040-link-click-counts.ts';
import * as accountClickDays from '../../../src/adapters/storage/migrations/0010-account-click-days.ts';
import { SqlStatsStore } from '../../../src/adapters/storage/stores/stats-store.ts';
import { SqlAdminStore } from '../../../src/adapters/storage/stores/admin-store.ts';
import { SqlRollupMonths } from '../../../src/adapters/storage/stores/rollup-months.ts';
import { ENGINES } from '../../support/harness.ts';
import { aClick } from '../../support/clicks.ts';
import * as accountDaysByTheWriter from '../../../src/adapters/storage/migrations/0036-account-days-by-the-writer.ts';
import { pgClickStatements } from '../../../src/adapters/clicks/postgres/pg-click-statements.ts';
import { sqliteClickStatements } from '../../../src/adapters/clicks/sqlite/sqlite-click-statements.ts';
import { writeRollups } from '../../../src/adapters/clicks/writer/rollup-writes.ts';
import { RollupWindow } from '../../../src/adapters/clicks/window/rollup-window.ts';
import type { Click } from '../../../src/core/clicks/click.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';

const BEFORE_0010 = migrationsUpTo('0009');
const RANGE = { from: '2026-01-01', to: '2026-01-03' };

/** Rollup increments as the click writers send them: new rows and additions to existing ones in one statement. */
async function addRollups(
  db: Kysely<unknown>,
  rows: Array<[link: number, dimension: string, day: string, value: string, count: number]>,
): Promise<void> {
  const values = sql.join(
    rows.map(([link, dimension, day, value, count]) => sql`(${link}, ${dimension}, ${day}, ${value}, ${count})`),
  );
  await sql`insert into click_rollups (link_id, dimension, day, value, count) values ${values}
    on conflict (link_id, dimension, day, value) do update set count = click_rollups.count + excluded.count`.execute(
    db,
  );
}

const byDay = (rows: Array<{ value: string | null; count: number }>) =>
  [...rows].sort((a, b) => String(a.value).localeCompare(String(b.value)));

for (const engine of ENGINES) {
  test(
    `migration 0010 [${engine.name}]: an account's clicks per day are backfilled, kept with the rollups, and it goes again`,
    { skip: engine.skip ?? false },
    async () => {
      await withEmptyStorage(engine.name, async (storage) => {
        const db = storage.db as never as Kysely<unknown>;
        for (const m of BEFORE_0010) await m.up(db, engine.name);
        // Today's operator sums add the clicks not yet settled (a later migration's table).
        await linkClickCounts.up(db, engine.name);
        await sql`insert into accounts (name, email, timezone, created_at) values ('a', 'a@example.com', 'UTC', 0), ('b', 'b@example.com', 'UTC', 0)`.execute(
          db,
        );
        for (const [account, alias] of [
          [1, 'a1'],
          [1, 'a2'],
          [2, 'b1'],
          [1, 'a3'],
        ] as const) {
          await sql`insert into links (account_id, alias, alias_key, url, target_type, disabled, privacy, created_at, updated_at)
                  values (${account}, ${alias}, ${alias}, 'https://example.com', 0, 0, 0, 0, 0)`.execute(db);
        }
        await addRollups(db, [
          [1, 'total', '2026-01-01', '', 3],
          [2, 'total', '2026-01-01', '', 4],
          [3, 'total', '2026-01-01', '', 100],
          [1, 'total', '2026-01-02', '', 5],
          [1, 'country', '2026-01-02', 'FR', 5],
          [2, 'total', '2026-01-04', '', 1],
        ]);
        const store = new SqlStatsStore(storage.db, engine.name, new SqlRollupMonths(storage.db, engine.name));
        const admin = new SqlAdminStore(storage.db);

        await accountClickDays.up(db, engine.name);
        assert.deepEqual(byDay(await store.accountPerDay(1, RANGE)), [
          { value: '2026-01-01', count: 7 },
          { value: '2026-01-02', count: 5 },
        ]);

        // One statement adding to existing rows, making new ones, and touching other dimensions
        // and another account: each account's days move by their own `total` rows only.
        await addRollups(db, [
          [1, 'total', '2026-01-01', '', 10],
          [4, 'total', '2026-01-01', '', 1],
          [4, 'total', '2026-01-03', '', 2],
          [3, 'total', '2026-01-03', '', 50],
          [1, 'unique', '2026-01-01', '', 9],
          [1, 'country', '2026-01-02', 'FR', 5],
        ]);
        assert.deepEqual(byDay(await store.accountPerDay(1, RANGE)), [
          { value: '2026-01-01', count: 18 },
          { value: '2026-01-02', count: 5 },
          { value: '2026-01-03', count: 2 },
        ]);
        assert.deepEqual(byDay(await store.accountPerDay(2, RANGE)), [
          { value: '2026-01-01', count: 100 },
          { value: '2026-01-03', count: 50 },
        ]);
        assert.equal((await admin.totals('2026-01-02')).recentClicks, 5 + 2 + 1 + 50);

        // A deleted link's clicks stay in its account's history; a deleted account's go with it.
        await sql`delete from links where id = 2`.execute(db);
        assert.equal(byDay(await store.accountPerDay(1, RANGE))[0]?.count, 18);
        await sql`delete from accounts where id = 2`.execute(db);
        assert.deepEqual(await store.accountPerDay(2, RANGE), []);

        await accountClickDays.down(db, engine.name);
        await accountClickDays.up(db, engine.name);
        assert.deepEqual(byDay(await store.accountPerDay(1, RANGE)), [
          { value: '2026-01-01', count: 14 },
          { value: '2026-01-02', count: 5 },
          { value: '2026-01-03', count: 2 },
        ]);
      });
    },
  );
}

for (const engine of ENGINES) {
  test(
    `the click writer's windows keep an account's clicks per day [${engine.name}]: added to as they are written (after migration 0036 went back and again)`,
    { skip: engine.skip ?? false },
    async () => {
      await withEmptyStorage(engine.name, async (storage) => {
        const db = storage.db as never as Kysely<unknown>;
        // 0036 goes back (the triggers) and again, then the rest: the writer's own statement from here.
        for (const m of migrationsUpTo('0036')) await m.up(db, engine.name);
        await accountDaysByTheWriter.down(db, engine.name);
        await accountDaysByTheWriter.up(db, engine.name);
        for (const [name, m] of Object.entries(MIGRATIONS)) if (name >= '0037') await m.up(db, engine.name);
        await sql`insert into accounts (name, email, timezone, created_at) values ('a', 'a@example.com', 'UTC', 0), ('b', 'b@example.com', 'UTC', 0)`.execute(
          db,
        );
        for (const [account, alias] of [
          [1, 'a1'],
          [1, 'a2'],
          [2, 'b1'],
        ] as const) {
          await sql`insert into links (account_id, alias, alias_key, url, target_type, disabled, privacy, created_at, updated_at)
                  values (${account}, ${alias}, ${alias}, 'https://example.com', 0, 0, 0, 0, 0)`.execute(db);
        }
        const statements = engine.name === 'postgres' ? pgClickStatements : sqliteClickStatements;
        const writeWindow = (clicks: Click[]) =>
          storage.db.transaction().execute(async (trx) => {
            const window = new RollupWindow();
            window.add(clicks);
            const live = await statements.keepLinks(trx, [1, 2, 3]);
            await writeRollups(trx, statements, window, live);
          });
        const on = (linkId: number, accountId: number, day: string, n: number) =>
          Array.from({ length: n }, (_, i) =>
            aClick({ linkId, accountId, day, at: Date.parse(`${day}T10:00:00Z`), country: i % 2 ? 'FR' : 'US' }),
          );

        await writeWindow([...on(1, 1, '2026-01-01', 3), ...on(2, 1, '2026-01-01', 4), ...on(3, 2, '2026-01-02', 5)]);
        await writeWindow([...on(1, 1, '2026-01-01', 2), ...on(2, 1, '2026-01-02', 1)]);
        const store = new SqlStatsStore(storage.db, engine.name, new SqlRollupMonths(storage.db, engine.name));
        assert.deepEqual(byDay(await store.accountPerDay(1, RANGE)), [
          { value: '2026-01-01', count: 9 },
          { value: '2026-01-02', count: 1 },
        ]);
        assert.deepEqual(byDay(await store.accountPerDay(2, RANGE)), [{ value: '2026-01-02', count: 5 }]);

        await writeWindow([...on(1, 1, '2026-01-01', 1), ...on(3, 2, '2026-01-02', 1)]);
        assert.deepEqual(byDay(await store.accountPerDay(1, RANGE)), [
          { value: '2026-01-01', count: 10 },
          { value: '2026-01-02', count: 1 },
        ]);
        assert.deepEqual(byDay(await store.accountPerDay(2, RANGE)), [{ value: '2026-01-02', count: 6 }]);
      });
    },
  );
}
