import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachSqlEngine } from '../../contracts/sql-database.ts';
import { sqlOwners } from '../../contracts/sql-owners.ts';
import * as migration from '../../../src/adapters/storage/migrations/0027-two-factor-and-resets.ts';

onEachSqlEngine('migration 0027-two-factor-and-resets', (storage) => {
  test('its tables follow their person: deleting an account deletes its two-factor rows and reset links', async () => {
    const { db } = storage();
    const id = await sqlOwners(db).account();
    await db
      .insertInto('user_totp')
      .values({ user_id: id, secret_box: 'v1.x.y.z', created_at: 1, confirmed_at: 2, last_step: 3 })
      .execute();
    await db.insertInto('user_recovery_codes').values({ user_id: id, code_hash: 'h', used_at: null }).execute();
    await db
      .insertInto('sign_in_challenges')
      .values({ user_id: id, token_hash: `c${id}`, remember: 0, expires_at: 9 })
      .execute();
    await db
      .insertInto('password_resets')
      .values({ user_id: id, token_hash: `r${id}`, created_at: 1, expires_at: 9, used_at: null })
      .execute();
    await db.deleteFrom('accounts').where('id', '=', id).execute();
    for (const table of ['user_totp', 'user_recovery_codes', 'sign_in_challenges', 'password_resets'] as const) {
      const rows = await db.selectFrom(table).select('user_id').where('user_id', '=', id).execute();
      assert.deepEqual(rows, [], table);
    }
  });

  test('it goes down and up again', async () => {
    const { db, engine } = storage();
    await migration.down(db as never);
    await assert.rejects(db.selectFrom('user_totp').selectAll().execute());
    await migration.up(db as never, engine);
    assert.deepEqual(await db.selectFrom('password_resets').selectAll().where('user_id', '=', -1).execute(), []);
  });
});
