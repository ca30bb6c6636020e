// Migration 0016: the link counters keyed by expiry_told too, backfilled from the links there
// are, moved by the expiry sweep's update, and the migration goes down to 0014's and up again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { migrationsUpTo } from '../../support/migrations.ts';
import * as linkCountsByExpiry from '../../../src/adapters/storage/migrations/0016-link-counts-by-expiry.ts';
import { ENGINES } from '../../support/harness.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';

type Counter = [account: number, disabled: number, told: number, count: number];

async function counters(db: Kysely<unknown>): Promise<Counter[]> {
  const rows = await sql<{ a: number; x: number; t: number; n: number | string }>`
    select account_id as a, disabled as x, expiry_told as t, count as n from account_link_counts
    where count <> 0 order by 1, 2, 3`.execute(db);
  return rows.rows.map((r) => [Number(r.a), Number(r.x), Number(r.t), Number(r.n)]);
}

for (const engine of ENGINES) {
  test(
    `migration 0016 [${engine.name}]: link counters by expiry_told, backfilled, kept, and it goes again`,
    { skip: engine.skip ?? false },
    async () => {
      await withEmptyStorage(engine.name, async (storage) => {
        const db = storage.db as never as Kysely<unknown>;
        for (const m of migrationsUpTo('0015')) await m.up(db, engine.name);
        await sql`insert into accounts (name, email, timezone, created_at) values ('a', 'a@example.com', 'UTC', 0), ('b', 'b@example.com', 'UTC', 0)`.execute(
          db,
        );
        const link = (account: number, alias: string, disabled: number, told: number) =>
          sql`insert into links (account_id, alias, alias_key, url, target_type, disabled, privacy, ends_at, expiry_told, created_at, updated_at)
          values (${account}, ${alias}, ${alias}, 'https://example.com', 0, ${disabled}, 0, ${told ? 1 : null}, ${told}, 0, 0)`.execute(
            db,
          );
        await link(1, 'a1', 0, 0);
        await link(1, 'a2', 0, 1);
        await link(1, 'a3', 1, 1);
        await link(2, 'b1', 0, 0);

        await linkCountsByExpiry.up(db, engine.name);
        assert.deepEqual(await counters(db), [
          [1, 0, 0, 1],
          [1, 0, 1, 1],
          [1, 1, 1, 1],
          [2, 0, 0, 1],
        ]);

        // The sweep's claim, an update opening a link again, one of clicks only, a delete.
        await sql`update links set expiry_told = 1 where alias in ('a1', 'b1')`.execute(db);
        await sql`update links set expiry_told = 0, ends_at = null where alias = 'a3'`.execute(db);
        await sql`update links set clicks = clicks + 1`.execute(db);
        await sql`delete from links where alias = 'a2'`.execute(db);
        const after: Counter[] = [
          [1, 0, 1, 1],
          [1, 1, 0, 1],
          [2, 0, 1, 1],
        ];
        assert.deepEqual(await counters(db), after);

        await linkCountsByExpiry.down(db, engine.name);
        const byFlag = await sql<{
          n: number | string;
        }>`select sum(count) as n from account_link_counts where account_id = 1 and disabled = 0`.execute(db);
        assert.equal(Number(byFlag.rows[0]!.n), 1, "0014's counters again");
        await linkCountsByExpiry.up(db, engine.name);
        assert.deepEqual(await counters(db), after);
      });
    },
  );
}
