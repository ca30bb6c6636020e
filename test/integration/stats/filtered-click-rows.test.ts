// Filtered statistics read click rows (ADR 51), bounded to the newest FILTERED_ROWS_MAX of them
// (ADR 57): newestFrom names the instant the newest `rows` start at, off the index the reads
// scan (the link's rows on PostgreSQL, every link's on SQLite, whose clicks have no index by link).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { migrateToLatest } from '../../../src/adapters/storage/migrations/index.ts';
import { SqlFilteredClickStore } from '../../../src/adapters/storage/stores/filtered-click-store.ts';
import { ENGINES } from '../../support/harness.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';
import { linkRow } from '../../support/link-rows.ts';

const MINUTE = 60_000;

for (const engine of ENGINES) {
  test(`filtered click rows [${engine.name}]: the newest rows' first instant, or null when the span holds no more`, { skip: engine.skip ?? false }, async () => {
    await withEmptyStorage(engine.name, async (storage) => {
      await migrateToLatest(storage.db, engine.name);
      await sql`insert into accounts (name, email, timezone, created_at) values ('a', 'a@example.com', 'UTC', 0)`.execute(storage.db);
      await storage.db
        .insertInto('links')
        .values([linkRow(1, 'busy'), linkRow(1, 'other')])
        .execute();
      // The busy link: a click a minute, at minutes 0..99; the other: one, at minute 50.
      const click = (link_id: number, minute: number) => ({ link_id, account_id: 1, at: minute * MINUTE, is_bot: minute % 10 === 0 ? 1 : 0, country: 'DE' });
      await storage.db
        .insertInto('clicks')
        .values([...Array.from({ length: 100 }, (_, m) => click(1, m)), click(2, 50)])
        .execute();
      const store = new SqlFilteredClickStore(storage.db, storage.engine);
      const span = { from: 0, to: 100 * MINUTE };

      // The newest 10 of the busy link's rows start at minute 90 (on SQLite the other link's row
      // is older than them and changes nothing).
      assert.equal(await store.newestFrom(1, span, 10), 90 * MINUTE);
      // 60 rows: PostgreSQL counts the busy link's (minutes 40..99); SQLite every row it scans,
      // the other link's at minute 50 among them (minutes 41..99 and that one).
      assert.equal(await store.newestFrom(1, span, 60), (engine.name === 'postgres' ? 40 : 41) * MINUTE);
      // As many rows as the span holds or more: nothing to cut.
      assert.equal(await store.newestFrom(1, span, 101), engine.name === 'postgres' ? null : 0);
      assert.equal(await store.newestFrom(1, span, 102), null);
      assert.equal(await store.newestFrom(1, { from: 95 * MINUTE, to: 100 * MINUTE }, 10), null);

      // Read from the cut on, the figures count exactly the newest rows (bots apart).
      const cut = { from: 90 * MINUTE, to: span.to };
      assert.deepEqual(await store.totals(1, cut, []), { total: 9, bots: 1 });
      assert.deepEqual(await store.counts(1, 'country', cut, []), [{ value: 'DE', count: 9 }]);
    });
  });
}
