import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachSqlEngine } from '../../contracts/sql-database.ts';
import { sqlOwners } from '../../contracts/sql-owners.ts';
import { SqlSsoIdentityStore } from '../../../src/adapters/storage/stores/sso-identity-store.ts';
import * as migration from '../../../src/adapters/storage/migrations/0032-sso-identities.ts';

onEachSqlEngine('migration 0032-sso-identities and its store', (storage) => {
  test('an identity is linked once, to one person, and goes with its account', async () => {
    const { db } = storage();
    const store = new SqlSsoIdentityStore(db, storage().engine);
    const [ada, bob] = [await sqlOwners(db).account(), await sqlOwners(db).account()];
    const identity = { issuer: 'https://id.example', subject: `s-${ada}` };
    assert.equal(await store.findUser(identity), null);
    await store.link(ada, identity, 1);
    await store.link(bob, identity, 2);
    assert.equal(await store.findUser(identity), ada, 'an identity already linked keeps its person');
    assert.equal(
      await store.findUser({ ...identity, issuer: 'https://other.example' }),
      null,
      'the issuer is part of the identity',
    );
    await db.deleteFrom('accounts').where('id', '=', ada).execute();
    assert.equal(await store.findUser(identity), null);
  });

  test('a person made with their identity: both or neither', async () => {
    const { db } = storage();
    const store = new SqlSsoIdentityStore(db, storage().engine);
    const identity = { issuer: 'https://id.example', subject: `new-${Date.now()}` };
    const email = `sso-${Date.now()}@example.com`;
    const made = await store.createUser({ email, name: 'Sso', timezone: 'UTC' }, identity, 1);
    assert.equal(await store.findUser(identity), made.id);
    const row = await db
      .selectFrom('accounts')
      .select('password_hash')
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.password_hash, null);
    const again = { ...identity, subject: `${identity.subject}-2` };
    await assert.rejects(store.createUser({ email, name: 'Twin', timezone: 'UTC' }, again, 1));
    assert.equal(await store.findUser(again), null, 'a refused account leaves no identity');
  });

  test('it goes down and up again', async () => {
    const { db, engine } = storage();
    await migration.down(db as never);
    await assert.rejects(db.selectFrom('sso_identities').selectAll().execute());
    await migration.up(db as never, engine);
    assert.deepEqual(await db.selectFrom('sso_identities').selectAll().where('user_id', '=', -1).execute(), []);
  });
});
