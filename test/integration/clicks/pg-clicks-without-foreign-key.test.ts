// Migration 0020 (docs/adr/0041): PostgreSQL's click rows lose their foreign key to links, and a
// statement trigger deletes a deleted link's rows at once, however the link goes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import * as withoutForeignKey from '../../../src/adapters/storage/migrations/0020-pg-clicks-without-foreign-key.ts';
import { ENGINES } from '../../support/harness.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';
import { migrationsUpTo } from '../../support/migrations.ts';
import { linkRow } from '../../support/link-rows.ts';

const postgres = ENGINES.find((e) => e.name === 'postgres')!;

const foreignKeysOf = async (db: Kysely<unknown>) =>
  (await sql<{ name: string }>`select conname as name from pg_constraint where conrelid = 'clicks'::regclass and contype = 'f'`.execute(db)).rows.map((r) => r.name);

const clicksByLink = async (db: Kysely<unknown>) =>
  (await sql<{ link_id: number; n: string }>`select link_id, count(*) as n from clicks group by link_id order by link_id`.execute(db)).rows.map((r) => [
    r.link_id,
    Number(r.n),
  ]);

test(
  'migration 0020 on PostgreSQL: no foreign key from clicks; a link deleted alone, with its domain or with its account takes its rows at once; down restores the key',
  { skip: postgres.skip ?? false },
  async () => {
    await withEmptyStorage('postgres', async (storage) => {
      const db = storage.db as unknown as Kysely<unknown>;
      for (const m of migrationsUpTo('0019')) await m.up(db, 'postgres');
      const typed = storage.db;
      await sql`insert into accounts (name, email, timezone, created_at) values ('a', 'a@example.com', 'UTC', 0), ('b', 'b@example.com', 'UTC', 0)`.execute(db);
      const domain = await typed
        .insertInto('domains')
        .values({ account_id: 1, name: 'go.example', index_page: null, not_found_page: null, verification_token: 't', verified_at: 0, created_at: 0, updated_at: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const [account, alias, domainId] of [
        [1, 'alone', null],
        [1, 'on-domain', domain.id],
        [2, 'of-b', null],
        [1, 'kept', null],
      ] as const) {
        await typed
          .insertInto('links')
          .values(linkRow(account, alias, { domain_id: domainId }))
          .execute();
      }
      for (const link of [1, 1, 2, 3, 3, 3, 4]) {
        await sql`insert into clicks (link_id, account_id, at) values (${link}, ${link === 3 ? 2 : 1}, 0)`.execute(db);
      }
      assert.deepEqual(await foreignKeysOf(db), ['clicks_link_id_fkey']);

      await withoutForeignKey.up(db, 'postgres');
      assert.deepEqual(await foreignKeysOf(db), []);
      assert.deepEqual(await clicksByLink(db), [
        [1, 2],
        [2, 1],
        [3, 3],
        [4, 1],
      ]);
      await sql`delete from links where id = 1`.execute(db);
      assert.deepEqual(await clicksByLink(db), [
        [2, 1],
        [3, 3],
        [4, 1],
      ]);
      await sql`delete from domains where id = ${domain.id}`.execute(db);
      await sql`delete from accounts where id = 2`.execute(db);
      assert.deepEqual(await clicksByLink(db), [[4, 1]], "the domain's and the other account's links took their rows");

      // A row left of a link that is gone (written past the click writer) is dropped by down.
      await sql`insert into clicks (link_id, account_id, at) values (999, 1, 0)`.execute(db);
      await withoutForeignKey.down(db, 'postgres');
      assert.deepEqual(await foreignKeysOf(db), ['clicks_link_id_fkey']);
      assert.deepEqual(await clicksByLink(db), [[4, 1]]);
      await sql`delete from links where id = 4`.execute(db);
      assert.deepEqual(await clicksByLink(db), [], 'the cascade is back');
      await withoutForeignKey.up(db, 'postgres');
      assert.deepEqual(await foreignKeysOf(db), [], 'and it goes again');
    });
  },
);

test('migration 0020 on SQLite: nothing to do (no foreign key since 0004)', async () => {
  await withEmptyStorage('sqlite', async (storage) => {
    const db = storage.db as unknown as Kysely<unknown>;
    for (const m of migrationsUpTo('0019')) await m.up(db, 'sqlite');
    await withoutForeignKey.up(db, 'sqlite');
    await withoutForeignKey.down(db, 'sqlite');
    assert.deepEqual((await sql<{ table: string }>`select "table" from pragma_foreign_key_list('clicks')`.execute(db)).rows, []);
  });
});
