import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import * as initial from '../../../src/adapters/storage/migrations/0001-initial.ts';
import * as clicks from '../../../src/adapters/storage/migrations/0002-clicks.ts';
import * as stats from '../../../src/adapters/storage/migrations/0003-stats.ts';
import * as rollupTotals from '../../../src/adapters/storage/migrations/0008-rollup-totals-by-day.ts';
import { SqlStatsStore } from '../../../src/adapters/storage/stores/stats-store.ts';
import { ENGINES } from '../../support/harness.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';

for (const engine of ENGINES) {
  test(`migration 0008 [${engine.name}]: the account's clicks per day are the same with the index, and it goes again`, { skip: engine.skip ?? false }, async () => {
    await withEmptyStorage(engine.name, async (storage) => {
      const db = storage.db as never;
      await initial.up(db, engine.name);
      await clicks.up(db, engine.name);
      await stats.up(db, engine.name);
      await sql`insert into accounts (name, email, timezone, created_at) values ('a', 'a@example.com', 'UTC', 0), ('b', 'b@example.com', 'UTC', 0)`.execute(db);
      for (const [account, alias] of [
        [1, 'a1'],
        [1, 'a2'],
        [2, 'b1'],
      ] as const) {
        await sql`insert into links (account_id, alias, alias_key, url, target_type, disabled, privacy, created_at, updated_at)
                  values (${account}, ${alias}, ${alias}, 'https://example.com', 0, 0, 0, 0, 0)`.execute(db);
      }
      await sql`insert into click_rollups (link_id, dimension, day, value, count) values
        (1, 'total', '2026-01-01', '', 3), (2, 'total', '2026-01-01', '', 4), (3, 'total', '2026-01-01', '', 100),
        (1, 'total', '2026-01-02', '', 5), (1, 'country', '2026-01-02', 'FR', 5), (2, 'total', '2026-01-04', '', 1)`.execute(db);
      const store = new SqlStatsStore(storage.db, engine.name);
      const range = { from: '2026-01-01', to: '2026-01-03' };
      const expected = [
        { value: '2026-01-01', count: 7 },
        { value: '2026-01-02', count: 5 },
      ];
      const sorted = (rows: Array<{ value: string | null; count: number }>) => [...rows].sort((a, b) => String(a.value).localeCompare(String(b.value)));
      assert.deepEqual(sorted(await store.accountPerDay(1, range)), expected);
      await rollupTotals.up(db, engine.name);
      assert.deepEqual(sorted(await store.accountPerDay(1, range)), expected);
      await rollupTotals.down(db);
      assert.deepEqual(sorted(await store.accountPerDay(1, range)), expected);
      await rollupTotals.up(db, engine.name);
    });
  });
}
