import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { connect } from '../../../src/adapters/storage/connect.ts';
import * as initial from '../../../src/adapters/storage/migrations/0001-initial.ts';
import * as clicks from '../../../src/adapters/storage/migrations/0002-clicks.ts';
import * as stats from '../../../src/adapters/storage/migrations/0003-stats.ts';
import * as appendOnly from '../../../src/adapters/storage/migrations/0004-clicks-append-only.ts';

const indexesOf = async (db: Kysely<unknown>) =>
  (
    await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'index' and tbl_name = 'clicks' order by name`.execute(db)
  ).rows.map((r) => r.name);
const foreignKeysOf = async (db: Kysely<unknown>) =>
  (await sql<{ table: string }>`select "table" from pragma_foreign_key_list('clicks')`.execute(db)).rows.map(
    (r) => r.table,
  );

test('migration 0004 on SQLite: click rows kept, no index or foreign key by link, deletions listed; down restores both', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'linkpix-0004-'));
  const storage = connect(`sqlite:${join(dir, 'db.sqlite')}`);
  const db = storage.db as unknown as Kysely<unknown>;
  try {
    for (const m of [initial, clicks, stats]) await m.up(db, 'sqlite');
    await sql`insert into accounts (name, email, timezone, created_at) values ('a', 'a@example.com', 'UTC', 0)`.execute(
      db,
    );
    for (const alias of ['one', 'two']) {
      await sql`insert into links (account_id, alias, alias_key, url, created_at, updated_at) values (1, ${alias}, ${alias}, 'https://example.com/', 0, 0)`.execute(
        db,
      );
    }
    for (const [link, at] of [
      [1, 10],
      [2, 20],
      [1, 30],
    ]) {
      await sql`insert into clicks (link_id, account_id, at, country) values (${link}, 1, ${at}, 'US')`.execute(db);
    }
    assert.deepEqual(await foreignKeysOf(db), ['links']);

    await appendOnly.up(db, 'sqlite');
    assert.deepEqual(await indexesOf(db), ['clicks_at']);
    assert.deepEqual(await foreignKeysOf(db), []);
    const rows = (
      await sql<{
        id: number;
        link_id: number;
        at: number;
        country: string;
      }>`select id, link_id, at, country from clicks order by id`.execute(db)
    ).rows;
    assert.deepEqual(rows, [
      { id: 1, link_id: 1, at: 10, country: 'US' },
      { id: 2, link_id: 2, at: 20, country: 'US' },
      { id: 3, link_id: 1, at: 30, country: 'US' },
    ]);
    await sql`insert into clicks (link_id, account_id, at) values (2, 1, 40)`.execute(db);
    assert.equal(
      (await sql<{ id: number }>`select max(id) as id from clicks`.execute(db)).rows[0]!.id,
      4,
      'ids go on from where they were',
    );

    // Deleting a link lists it (a trigger: cascades from a domain or an account too); its rows wait for the sweep.
    await sql`delete from links where id = 1`.execute(db);
    assert.deepEqual((await sql`select link_id from deleted_links`.execute(db)).rows, [{ link_id: 1 }]);
    assert.equal((await sql`select id from clicks where link_id = 1`.execute(db)).rows.length, 2);

    await appendOnly.down(db, 'sqlite');
    assert.deepEqual(await indexesOf(db), ['clicks_at', 'clicks_link_at']);
    assert.deepEqual(await foreignKeysOf(db), ['links']);
    assert.deepEqual(
      (await sql<{ id: number }>`select id from clicks order by id`.execute(db)).rows.map((r) => r.id),
      [2, 4],
      'rows of deleted links cannot come back under the key',
    );
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
