// Migration 0014: the link counters are backfilled from the links there are, kept by the
// triggers from then on, and the migration goes down and up again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { migrationsUpTo } from '../../support/migrations.ts';
import * as accountLinkCounts from '../../../src/adapters/storage/migrations/0014-account-link-counts.ts';
import { ENGINES } from '../../support/harness.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';

type Counter = [account: number, space: number, domain: number, disabled: number, count: number];

async function counters(db: Kysely<unknown>): Promise<Counter[]> {
  const rows = await sql<{ a: number; s: number; d: number; x: number; n: number | string }>`
    select account_id as a, space_id as s, domain_id as d, disabled as x, count as n from account_link_counts
    where count <> 0 order by 1, 2, 3, 4`.execute(db);
  return rows.rows.map((r) => [Number(r.a), Number(r.s), Number(r.d), Number(r.x), Number(r.n)]);
}

for (const engine of ENGINES) {
  test(
    `migration 0014 [${engine.name}]: link counters backfilled, kept by the triggers, and it goes again`,
    { skip: engine.skip ?? false },
    async () => {
      await withEmptyStorage(engine.name, async (storage) => {
        const db = storage.db as never as Kysely<unknown>;
        for (const m of migrationsUpTo('0013')) await m.up(db, engine.name);
        await sql`insert into accounts (name, email, timezone, created_at) values ('a', 'a@example.com', 'UTC', 0), ('b', 'b@example.com', 'UTC', 0)`.execute(
          db,
        );
        await sql`insert into spaces (account_id, name, name_key, color, created_at, updated_at) values (1, 's', 's', 1, 0, 0)`.execute(
          db,
        );
        const link = (account: number, alias: string, space: number | null, disabled: number) =>
          sql`insert into links (account_id, alias, alias_key, url, space_id, target_type, disabled, privacy, created_at, updated_at)
          values (${account}, ${alias}, ${alias}, 'https://example.com', ${space}, 0, ${disabled}, 0, 0, 0)`.execute(
            db,
          );
        await link(1, 'a1', null, 0);
        await link(1, 'a2', 1, 0);
        await link(1, 'a3', 1, 1);
        await link(2, 'b1', null, 0);

        await accountLinkCounts.up(db, engine.name);
        assert.deepEqual(await counters(db), [
          [1, 0, 0, 0, 1],
          [1, 1, 0, 0, 1],
          [1, 1, 0, 1, 1],
          [2, 0, 0, 0, 1],
        ]);

        // Several rows in one statement, an update of the counted columns, one of clicks only, deletes.
        await sql`insert into links (account_id, alias, alias_key, url, space_id, target_type, disabled, privacy, created_at, updated_at)
        values (1, 'a4', 'a4', 'https://example.com', 1, 0, 0, 0, 0, 0), (1, 'a5', 'a5', 'https://example.com', 1, 0, 0, 0, 0, 0),
               (2, 'b2', 'b2', 'https://example.com', null, 0, 1, 0, 0, 0)`.execute(db);
        await sql`update links set disabled = 1 where alias = 'a4'`.execute(db);
        await sql`update links set clicks = clicks + 1`.execute(db);
        await sql`delete from links where alias in ('a1', 'b1')`.execute(db);
        await sql`delete from spaces where id = 1`.execute(db);
        assert.deepEqual(await counters(db), [
          [1, 0, 0, 0, 2],
          [1, 0, 0, 1, 2],
          [2, 0, 0, 1, 1],
        ]);

        await accountLinkCounts.down(db, engine.name);
        await accountLinkCounts.up(db, engine.name);
        assert.deepEqual(await counters(db), [
          [1, 0, 0, 0, 2],
          [1, 0, 0, 1, 2],
          [2, 0, 0, 1, 1],
        ]);
      });
    },
  );
}
