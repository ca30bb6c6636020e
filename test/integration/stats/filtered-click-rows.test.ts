// Filtered statistics read click rows, bounded to the newest FILTERED_ROWS_MAX of them
// (docs/design/statistics.md): newestFrom names the instant the link's own newest `rows` start at, on either engine
// (on SQLite too, whose clicks have no index by link: another link's rows never move it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { migrateToLatest } from '../../../src/adapters/storage/migrations/index.ts';
import { SqlFilteredClickStore } from '../../../src/adapters/storage/stores/filtered-click-store.ts';
import { ENGINES } from '../../support/harness.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';
import { insertRollups } from '../../support/rollup-rows.ts';
import { linkRow } from '../../support/link-rows.ts';

const MINUTE = 60_000;

for (const engine of ENGINES) {
  test(
    `filtered click rows [${engine.name}]: the newest rows' first instant, or null when the span holds no more`,
    { skip: engine.skip ?? false },
    async () => {
      await withEmptyStorage(engine.name, async (storage) => {
        await migrateToLatest(storage.db, engine.name);
        await sql`insert into accounts (name, email, timezone, created_at) values ('a', 'a@example.com', 'UTC', 0)`.execute(
          storage.db,
        );
        await storage.db
          .insertInto('links')
          .values([linkRow(1, 'busy'), linkRow(1, 'other')])
          .execute();
        // The busy link: a click a minute, at minutes 0..99; the other: one, at minute 50.
        const click = (link_id: number, minute: number) => ({
          link_id,
          account_id: 1,
          at: minute * MINUTE,
          is_bot: minute % 10 === 0 ? 1 : 0,
          country: 'DE',
        });
        await storage.db
          .insertInto('clicks')
          .values([...Array.from({ length: 100 }, (_, m) => click(1, m)), click(2, 50)])
          .execute();
        const store = new SqlFilteredClickStore(storage);
        const span = { from: 0, to: 100 * MINUTE };

        // The newest 10 of the busy link's rows start at minute 90.
        assert.equal(await store.newestFrom(1, span, 10), 90 * MINUTE);
        // 60 rows: the busy link's own (minutes 40..99); the other link's at minute 50 is not one of them.
        assert.equal(await store.newestFrom(1, span, 60), 40 * MINUTE);
        // As many rows as the link has in the span or more: nothing to cut.
        assert.equal(await store.newestFrom(1, span, 101), null);
        assert.equal(await store.newestFrom(1, span, 102), null);
        assert.equal(await store.newestFrom(1, { from: 95 * MINUTE, to: 100 * MINUTE }, 10), null);

        // Read from the cut on, the figures count exactly the newest rows (bots apart).
        const cut = { from: 90 * MINUTE, to: span.to };
        assert.deepEqual(await store.totals(1, cut, []), { total: 9, bots: 1 });
        assert.deepEqual(await store.counts(1, 'country', cut, []), [{ value: 'DE', count: 9 }]);
      });
    },
  );
}

const DAY = 86_400_000;
const NOON = (day: number) => Date.parse('2026-11-01T12:00:00Z') + day * DAY;
const dayOf = (day: number) => new Date(NOON(day)).toISOString().slice(0, 10);

for (const engine of ENGINES) {
  test(
    `filtered click rows [${engine.name}]: a link's cut is by its own rows, whatever another account's link receives`,
    { skip: engine.skip ?? false },
    async () => {
      await withEmptyStorage(engine.name, async (storage) => {
        await migrateToLatest(storage.db, engine.name);
        await sql`insert into accounts (name, email, timezone, created_at) values ('quiet', 'quiet@example.com', 'UTC', 0), ('busy', 'busy@example.com', 'UTC', 0)`.execute(
          storage.db,
        );
        await storage.db
          .insertInto('links')
          .values([linkRow(1, 'quiet'), linkRow(2, 'busy')])
          .execute();
        // Clicks as the writer leaves them: the rows and their daily `total` rollups.
        const clicks = async (link_id: number, account_id: number, days: number[]) => {
          await storage.db
            .insertInto('clicks')
            .values(days.map((day, i) => ({ link_id, account_id, at: NOON(day) + i, is_bot: 0 })))
            .execute();
          const perDay = new Map<string, number>();
          for (const day of days) perDay.set(dayOf(day), (perDay.get(dayOf(day)) ?? 0) + 1);
          await insertRollups(
            storage,
            [...perDay].map(([day, count]) => ({ link_id, dimension: 'total', day, value: '', count })),
          );
        };
        // The quiet link: a click a day at noon, days 0..19.
        await clicks(
          1,
          1,
          Array.from({ length: 20 }, (_, d) => d),
        );
        const store = new SqlFilteredClickStore(storage);
        const span = { from: NOON(-1), to: NOON(30) };
        const cuts = async () => ({
          three: await store.newestFrom(1, span, 3),
          twelve: await store.newestFrom(1, span, 12),
          all: await store.newestFrom(1, span, 21),
        });
        const alone = await cuts();
        // Its 3rd newest is day 17's, its 12th day 8's; it has 20: none to cut at 21.
        assert.deepEqual(alone, { three: NOON(17) + 17, twelve: NOON(8) + 8, all: null });

        // Another account's link gets 3 000 clicks over the same days, most of them the newest.
        await clicks(
          2,
          2,
          Array.from({ length: 3000 }, (_, i) => (i < 2500 ? 15 + (i % 5) : i % 15)),
        );
        assert.deepEqual(await cuts(), alone);
        // And the busy link's own cut is its own: its 100th newest is on day 19.
        const hundredth = await storage.db
          .selectFrom('clicks')
          .select('at')
          .where('link_id', '=', 2)
          .orderBy('at', 'desc')
          .limit(1)
          .offset(99)
          .executeTakeFirstOrThrow();
        assert.equal(await store.newestFrom(2, span, 100), Number(hundredth.at));
      });
    },
  );
}
