// Migration 0044 (docs/design/history.md): every link already there gets its version 1, its state
// as the migration found it, from no person via cli; migration 0047: each link's last version its
// tags; both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachSqlEngine } from '../../contracts/sql-database.ts';
import { sqlOwners } from '../../contracts/sql-owners.ts';
import * as migration from '../../../src/adapters/storage/migrations/0044-link-history.ts';
import * as migration0047 from '../../../src/adapters/storage/migrations/0047-history-tags-and-digests.ts';
import { SqlTagStore } from '../../../src/adapters/storage/stores/tag-store.ts';
import { SqlLinkStore } from '../../../src/adapters/storage/stores/link-store.ts';
import { SqlLinkHistory } from '../../../src/adapters/storage/stores/link-history-store.ts';
import { newLinkFields, PRIVATE_STATS } from '../../../src/core/links/new-link-fields.ts';
import { stateOf } from '../../../src/core/links/link-history.ts';

onEachSqlEngine('migration 0044-link-history', (storage) => {
  test('each existing link gets version 1 with its state; down and up again', async () => {
    const { db, engine } = storage();
    const owners = sqlOwners(db);
    const account = await owners.account();
    const pixel = await owners.pixel(account);
    const fields = {
      ...newLinkFields(null, null, PRIVATE_STATS),
      alias: `m${process.pid}x${Date.now().toString(36)}`,
      url: 'https://example.com/before-history',
      title: 'Before',
    };
    const link = await new SqlLinkStore(db, engine).insert(account, fields, [pixel], 1234);
    await migration.down(db as never);
    await migration.up(db as never, engine);
    const page = await new SqlLinkHistory(db).list(account, link.id, { page: 1, perPage: 10 });
    assert.equal(page.total, 1);
    const [first] = page.items;
    assert.equal(first!.version, 1);
    assert.equal(first!.at, 1234);
    assert.deepEqual(first!.actor, { userId: null, keyId: null, via: 'cli' });
    assert.deepEqual(first!.state, stateOf(link));
    assert.deepEqual(first!.changes.url, [null, 'https://example.com/before-history']);
  });
});

onEachSqlEngine('migration 0047-history-tags-and-digests', (storage) => {
  test("each link's last version gets the link's tags; older versions keep none; down and up again", async () => {
    const { db, engine } = storage();
    const account = await sqlOwners(db).account();
    const fields = {
      ...newLinkFields(null, null, PRIVATE_STATS),
      alias: `t${process.pid}x${Date.now().toString(36)}`,
      url: 'https://example.com/before-tags',
    };
    const link = await new SqlLinkStore(db, engine).insert(account, fields, [], 1234);
    const tags = new SqlTagStore(db);
    const made = await tags.ensure(account, ['zeta', 'alpha'], 1234);
    await tags.setLinkTags(
      account,
      [link.id],
      made.map((t) => t.id),
    );
    const history = new SqlLinkHistory(db);
    const untagged = stateOf(link);
    const version = (at: number) => ({
      linkId: link.id,
      accountId: account,
      at,
      actor: { userId: null, keyId: null, via: 'api' as const },
      restoredFrom: null,
      changes: {},
      state: untagged,
    });
    await history.append([version(1), version(2)]);
    await migration0047.down(db as never);
    await migration0047.up(db as never, engine);
    const [last, first] = (await history.list(account, link.id, { page: 1, perPage: 10 })).items;
    assert.deepEqual(
      last!.state.tags,
      [...made].sort((a, b) => a.name.localeCompare(b.name)).map((t) => ({ id: t.id, name: t.name })),
    );
    assert.equal(first!.state.tags, undefined, 'an older version keeps no tags');
  });
});
