// Migration 0054 (docs/design/statistics.md, "Workspace analytics"): the links' URL values parsed
// for the ones already there, and the value days of the link days so far counted under each
// link's facts as they are now: the numbers the breakdowns answered before the migration; both
// engines, down and up again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { onEachSqlEngine } from '../../contracts/sql-database.ts';
import { sqlOwners } from '../../contracts/sql-owners.ts';
import * as migration from '../../../src/adapters/storage/migrations/0054-account-value-days.ts';
import { SqlLinkStore } from '../../../src/adapters/storage/stores/link-store.ts';
import { SqlTagStore } from '../../../src/adapters/storage/stores/tag-store.ts';
import { SqlWorkspaceStatsStore } from '../../../src/adapters/storage/stores/workspace-stats-store.ts';
import { newLinkFields, PRIVATE_STATS } from '../../../src/core/links/new-link-fields.ts';
import type { ValueCount } from '../../../src/core/stats/stats-store.ts';

const sorted = (counts: readonly ValueCount[] | undefined) =>
  [...(counts ?? [])].map((c) => [c.value, c.count]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));

onEachSqlEngine('migration 0054-account-value-days', (storage) => {
  test("existing link days become value days under each link's facts now (a deleted link's in qr only); down and up again", async () => {
    const { db, engine } = storage();
    const owners = sqlOwners(db);
    const account = await owners.account();
    const spaceId = await owners.space(account);
    const space = await db.selectFrom('spaces').select('name').where('id', '=', spaceId).executeTakeFirstOrThrow();
    const links = new SqlLinkStore(db, engine);
    const tag = Date.now().toString(36);
    const make = (n: number, url: string, space: number | null) =>
      links.insert(
        account,
        { ...newLinkFields(null, space, PRIVATE_STATS), alias: `vd${process.pid}x${tag}${n}`, url },
        [],
        1000,
      );
    const a = await make(1, 'https://www.Shop.example/a?utm_source=news&utm_medium=email', spaceId);
    const b = await make(2, 'https://blog.example/b?utm_campaign=spring', null);
    const gone = await make(3, 'https://gone.example/', null);
    const tags = new SqlTagStore(db);
    const [launch, q3] = await tags.ensure(account, ['Launch', 'Q3'], 1000);
    await tags.setLinkTags(account, [a.id], [launch!.id, q3!.id]);
    await tags.setLinkTags(account, [b.id], [q3!.id]);

    await migration.down(db as never, engine);
    // The link days as the click writers left them before the migration.
    for (const [day, link, clicks, qr] of [
      ['2026-01-01', a.id, 5, 2],
      ['2026-01-02', a.id, 1, 0],
      ['2026-01-01', b.id, 3, 0],
      ['2026-01-02', gone.id, 4, 1],
    ] as const)
      await sql`insert into account_link_days (account_id, day, link_id, clicks, qr)
        values (${account}, ${day}, ${link}, ${clicks}, ${qr})`.execute(db);
    await links.delete(account, gone.id);
    await migration.up(db as never, engine);

    const parsed = await db
      .selectFrom('links')
      .select(['utm_source', 'utm_medium', 'utm_campaign', 'destination_host'])
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(parsed, {
      utm_source: 'news',
      utm_medium: 'email',
      utm_campaign: null,
      destination_host: 'shop.example',
    });
    const store = new SqlWorkspaceStatsStore(db, { now: () => Date.parse('2026-06-01T00:00:00Z') });
    const got = await store.valueCounts(account, { from: '2026-01-01', to: '2026-01-02' }, [
      'tags',
      'spaces',
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'destinations',
      'qr',
    ]);
    assert.deepEqual(sorted(got.get('tags')), [
      ['Launch', 6],
      ['Q3', 9],
    ]);
    assert.deepEqual(
      sorted(got.get('spaces')),
      sorted([
        { value: space.name, count: 6 },
        { value: null, count: 3 },
      ]),
    );
    assert.deepEqual(sorted(got.get('utm_source')), [
      ['news', 6],
      [null, 3],
    ]);
    assert.deepEqual(sorted(got.get('utm_medium')), [
      ['email', 6],
      [null, 3],
    ]);
    assert.deepEqual(sorted(got.get('utm_campaign')), [
      [null, 6],
      ['spring', 3],
    ]);
    assert.deepEqual(sorted(got.get('destinations')), [
      ['blog.example', 3],
      ['shop.example', 6],
    ]);
    assert.deepEqual(sorted(got.get('qr')), [
      [null, 13],
      ['qr', 3],
    ]);
    const ranking = await store.linkRanking(account, { from: '2026-01-01', to: '2026-01-02' });
    assert.equal(ranking.size, 2, 'the deleted link is not ranked');
    assert.equal(ranking.clicksOf(a.id), 6);
  });
});
