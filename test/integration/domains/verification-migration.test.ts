// Migration 0005: domains that served before it keep serving (verified), on both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import * as initial from '../../../src/adapters/storage/migrations/0001-initial.ts';
import * as clicks from '../../../src/adapters/storage/migrations/0002-clicks.ts';
import * as stats from '../../../src/adapters/storage/migrations/0003-stats.ts';
import * as appendOnly from '../../../src/adapters/storage/migrations/0004-clicks-append-only.ts';
import * as verification from '../../../src/adapters/storage/migrations/0005-domain-verification.ts';
import * as webAccounts from '../../../src/adapters/storage/migrations/0006-web-accounts.ts';
import * as linkClickCounts from '../../../src/adapters/storage/migrations/0040-link-click-counts.ts';
import { SqlRedirectLinkSource } from '../../../src/adapters/storage/stores/redirect-link-source.ts';
import { ENGINES } from '../../support/harness.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';

for (const engine of ENGINES) {
  test(
    `migration 0005 [${engine.name}]: existing domains verified and serving, links kept; one verified domain per name`,
    { skip: engine.skip ?? false },
    async () => {
      await withEmptyStorage(engine.name, async (storage) => {
        const db = storage.db as unknown as Kysely<unknown>;
        for (const m of [initial, clicks, stats, appendOnly]) await m.up(db, engine.name);
        await sql`insert into accounts (name, email, timezone, created_at) values ('a', 'a@example.com', 'UTC', 0)`.execute(
          db,
        );
        for (const name of ['one.example.com', 'two.example.com', 'gone.example.com']) {
          await sql`insert into domains (account_id, name, created_at, updated_at) values (1, ${name}, 5, 7)`.execute(
            db,
          );
        }
        for (const [domain, alias] of [
          [1, 'a'],
          [2, 'b'],
          [null, 'c'],
        ] as const) {
          await sql`insert into links (account_id, domain_id, alias, alias_key, url, created_at, updated_at)
          values (1, ${domain}, ${alias}, ${alias}, ${`https://example.com/${alias}`}, 0, 0)`.execute(db);
        }
        await sql`delete from domains where id = 3`.execute(db);

        await verification.up(db, engine.name);

        const rows = (
          await sql<{ id: number; name: string; verified_at: number; verification_token: string }>`
        select id, name, verified_at, verification_token from domains order by id`.execute(db)
        ).rows;
        assert.deepEqual(
          rows.map((r) => [r.id, r.name, Number(r.verified_at)]),
          [
            [1, 'one.example.com', 7],
            [2, 'two.example.com', 7],
          ],
        );
        assert.ok(rows.every((r) => /^[A-Za-z0-9_-]{24}$/.test(r.verification_token)));
        assert.notEqual(rows[0]!.verification_token, rows[1]!.verification_token);
        // Rebuilding the table on SQLite must not have cascaded into the links.
        assert.equal((await sql`select id from links`.execute(db)).rows.length, 3);
        // Today's redirect reads columns of later migrations (an owner's suspension): bring them in.
        await webAccounts.up(db, engine.name);
        await linkClickCounts.up(db, engine.name);
        const source = new SqlRedirectLinkSource(storage.db, new Set(['short.test']), engine.name);
        assert.equal((await source.find('one.example.com', 'a'))?.url, 'https://example.com/a');

        // Several claims of one name, only one of them verified.
        await sql`insert into domains (account_id, name, verification_token, created_at, updated_at) values (1, 'new.example.com', 't', 0, 0)`.execute(
          db,
        );
        const newId = (await sql<{ id: number }>`select id from domains where name = 'new.example.com'`.execute(db))
          .rows[0]!.id;
        assert.equal(newId, 4, "a deleted domain's id is not given again");
        await sql`insert into accounts (name, email, timezone, created_at) values ('b', 'b@example.com', 'UTC', 0)`.execute(
          db,
        );
        await sql`insert into domains (account_id, name, verification_token, created_at, updated_at) values (2, 'one.example.com', 'u', 0, 0)`.execute(
          db,
        );
        await assert.rejects(
          sql`update domains set verified_at = 1 where account_id = 2 and name = 'one.example.com'`.execute(db),
        );
        await assert.rejects(
          sql`insert into domains (account_id, name, verification_token, created_at, updated_at) values (1, 'one.example.com', 'v', 0, 0)`.execute(
            db,
          ),
          'an account holds a name once',
        );
        // The links' foreign key still points at the (rebuilt) table: deleting a domain takes its links.
        await sql`delete from domains where id = 2`.execute(db);
        assert.deepEqual(
          (await sql<{ alias: string }>`select alias from links order by id`.execute(db)).rows.map((r) => r.alias),
          ['a', 'c'],
        );

        await verification.down(db, engine.name);
        assert.deepEqual(
          (await sql<{ name: string }>`select name from domains order by id`.execute(db)).rows.map((r) => r.name),
          ['one.example.com'],
        );
        await assert.rejects(
          sql`insert into domains (account_id, name, created_at, updated_at) values (2, 'one.example.com', 0, 0)`.execute(
            db,
          ),
        );
      });
    },
  );
}
