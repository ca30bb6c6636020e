import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { onEachSqlEngine } from '../../contracts/sql-database.ts';
import { sqlOwners } from '../../contracts/sql-owners.ts';
import * as migration from '../../../src/adapters/storage/migrations/0033-conversions.ts';
import { SqlLinkStore } from '../../../src/adapters/storage/stores/link-store.ts';
import { SqlConversionStore } from '../../../src/adapters/storage/stores/conversion-store.ts';
import { newLinkFields } from '../../../src/core/links/new-link-fields.ts';

onEachSqlEngine('migration 0033-conversions', (storage) => {
  const aLink = async () => {
    const { db, engine } = storage();
    const account = await sqlOwners(db).account();
    const fields = {
      ...newLinkFields(null, null, 1),
      alias: `m${randomBytes(4).toString('hex')}`,
      url: 'https://example.com/',
    };
    return new SqlLinkStore(db, engine).insert(account, fields, [], 1000);
  };
  const conversion = (linkId: number, clickId: string, name: string) => ({
    linkId,
    clickId,
    rule: 0,
    variant: 1,
    name,
    value: 2.5,
    currency: 'EUR',
    clickedAt: 1000,
    createdAt: 2000,
  });

  test('a link reads track_conversions 0 until set; its conversions go with it', async () => {
    const { db } = storage();
    const link = await aLink();
    assert.equal(link.trackConversions, 0);
    const store = new SqlConversionStore(storage());
    const first = await store.record(conversion(link.id, `c${link.id}`, 'sale'));
    assert.equal(first.created, true);
    const again = await store.record({ ...conversion(link.id, `c${link.id}`, 'sale'), value: 9 });
    assert.deepEqual(again, { conversion: first.conversion, created: false });
    assert.deepEqual(await store.namesOf(`c${link.id}`, 20), ['sale']);
    await db.deleteFrom('links').where('id', '=', link.id).execute();
    assert.deepEqual(await db.selectFrom('conversions').select('id').where('link_id', '=', link.id).execute(), []);
  });

  test('it goes down and up again', async () => {
    const { db, engine } = storage();
    await migration.down(db as never);
    await assert.rejects(db.selectFrom('conversions').selectAll().execute());
    await migration.up(db as never, engine);
    const link = await aLink();
    assert.equal(link.trackConversions, 0);
    assert.deepEqual(await db.selectFrom('conversions').selectAll().where('link_id', '=', link.id).execute(), []);
  });
});
