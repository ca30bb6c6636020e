import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachSqlEngine } from '../../contracts/sql-database.ts';
import { sqlOwners } from '../../contracts/sql-owners.ts';
import * as migration from '../../../src/adapters/storage/migrations/0031-email-verification.ts';
import { SqlEmailVerificationStore } from '../../../src/adapters/storage/stores/email-verification-store.ts';

onEachSqlEngine('migration 0031-email-verification', (storage) => {
  test('accounts made before it are verified; a link is used once and verifies its person; rows follow their person', async () => {
    const { db } = storage();
    const store = new SqlEmailVerificationStore(db);
    const before = await sqlOwners(db).account();
    assert.equal(await store.pending(before), false, 'no row: verified, as every account already there');
    const id = await sqlOwners(db).account();
    await store.insert(id, `a${id}`, 1000, 5000);
    await store.insert(id, `b${id}`, 1000, 5000);
    assert.equal(await store.pending(id), true);
    assert.equal(await store.use(`a${id}`, 5000), null, 'past its time');
    assert.equal(await store.use(`a${id}`, 2000), id);
    assert.equal(await store.pending(id), false);
    assert.equal(await store.use(`b${id}`, 2000), null, 'the other links of the person end with it');
    await store.insert(id, `c${id}`, 1000, 5000);
    await db.deleteFrom('accounts').where('id', '=', id).execute();
    for (const table of ['unverified_emails', 'email_verifications'] as const) {
      assert.deepEqual(await db.selectFrom(table).select('user_id').where('user_id', '=', id).execute(), [], table);
    }
  });

  test('it goes down and up again', async () => {
    const { db, engine } = storage();
    await migration.down(db as never);
    await assert.rejects(db.selectFrom('email_verifications').selectAll().execute());
    await migration.up(db as never, engine);
    assert.deepEqual(await db.selectFrom('unverified_emails').selectAll().where('user_id', '=', -1).execute(), []);
  });
});
