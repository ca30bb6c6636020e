// What every AccountStore promises (src/core/accounts/account-store.ts), as the accounts, sign-in
// and API-key checks rely on it: run against the SQL store on both engines and the core's fake.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from '../../src/core/shared/errors.ts';
import type { AccountStore } from '../../src/core/accounts/account-store.ts';

let made = 0;
const email = () => `a${process.pid}-${Date.now().toString(36)}-${++made}@example.com`;
const person = (address = email()) => ({ email: address, name: 'Ada', timezone: 'Europe/Paris' });
const key = (hash = `hash-${++made}-${Date.now()}`) => ({ hash, prefix: hash.slice(0, 8), name: 'ci' });
const emailTaken = (e: unknown) => e instanceof ValidationError && Object.keys(e.fields).includes('email');

export function describeAccountStoreContract(name: string, make: () => AccountStore): void {
  describe(`${name}: the AccountStore contract`, () => {
    test('createWithKey makes the account and its key; both are found again', async () => {
      const accounts = make();
      const who = person();
      const { account, key: made } = await accounts.createWithKey(who, key('hash-one-' + who.email), 1000);
      assert.deepEqual(
        { email: account.email, name: account.name, timezone: account.timezone, createdAt: account.createdAt },
        { ...who, createdAt: 1000 },
      );
      assert.equal(account.suspendedAt, null);
      // A personal account's key: its own person's, every scope, no end (docs/design/teams.md).
      assert.deepEqual(made, {
        id: made.id,
        accountId: account.id,
        userId: account.id,
        scopes: null,
        expiresAt: null,
        name: 'ci',
        prefix: 'hash-one',
        createdAt: 1000,
        lastUsedAt: null,
        revokedAt: null,
      });
      const scoped = await accounts.insertKey(
        account.id,
        { ...key(), userId: account.id, scopes: ['links:read'], expiresAt: 5000 },
        2000,
      );
      assert.deepEqual([scoped.userId, scoped.scopes, scoped.expiresAt], [account.id, ['links:read'], 5000]);
      assert.deepEqual(await accounts.findById(account.id), account);
      assert.deepEqual(await accounts.findByEmail(who.email), account);
      assert.deepEqual(await accounts.findKeyByHash('hash-one-' + who.email), { key: made, account });
      assert.equal(await accounts.findByEmail(email()), null);
      assert.equal(await accounts.findById(999_999_999), null);
      assert.equal(await accounts.findKeyByHash('no-such-hash'), null);
    });

    test('an email already held is refused on the email, and nothing of the second account is left', async () => {
      const accounts = make();
      const who = person();
      await accounts.createWithPassword(who, 'h', 1000);
      await assert.rejects(
        accounts.createWithKey({ ...who, name: 'Twin' }, key('hash-twin-' + who.email), 1000),
        emailTaken,
      );
      await assert.rejects(accounts.createWithPassword({ ...who, name: 'Twin' }, 'h', 1000), emailTaken);
      assert.equal(await accounts.findKeyByHash('hash-twin-' + who.email), null);
      const other = await accounts.createWithPassword(person(), 'h', 1000);
      await assert.rejects(accounts.updateProfile(other.id, { ...who, name: 'Other' }), emailTaken);
      assert.equal((await accounts.findByEmail(who.email))?.name, 'Ada');
    });

    test('password: findCredentials and passwordHashOf read it; setPasswordHash replaces it; a key account has none', async () => {
      const accounts = make();
      const withPassword = await accounts.createWithPassword(person(), 'first', 1000);
      assert.deepEqual(await accounts.findCredentials(withPassword.email), {
        account: withPassword,
        passwordHash: 'first',
      });
      await accounts.setPasswordHash(withPassword.id, 'second');
      assert.equal(await accounts.passwordHashOf(withPassword.id), 'second');
      const { account: withKey } = await accounts.createWithKey(person(), key(), 1000);
      assert.deepEqual(await accounts.findCredentials(withKey.email), { account: withKey, passwordHash: null });
      assert.equal(await accounts.passwordHashOf(withKey.id), null);
      assert.equal(await accounts.findCredentials(email()), null);
    });

    test('updateProfile changes email, name and time zone and answers the account', async () => {
      const accounts = make();
      const account = await accounts.createWithPassword(person(), 'h', 1000);
      const next = person();
      const updated = await accounts.updateProfile(account.id, { ...next, name: 'Grace', timezone: 'UTC' });
      assert.deepEqual(updated, { ...account, email: next.email, name: 'Grace', timezone: 'UTC' });
      assert.deepEqual(await accounts.findByEmail(next.email), updated);
      assert.equal(await accounts.findByEmail(account.email), null);
    });

    test('keys: listed by id; revoking is the owner’s and once; a revoked key is still found, marked', async () => {
      const accounts = make();
      const { account, key: first } = await accounts.createWithKey(person(), key(), 1000);
      const other = await accounts.createWithPassword(person(), 'h', 1000);
      const second = await accounts.insertKey(account.id, key(), 2000);
      assert.deepEqual(
        (await accounts.listKeys(account.id)).map((k) => k.id),
        [first.id, second.id],
      );
      assert.deepEqual(await accounts.listKeys(other.id), []);
      assert.equal(await accounts.revokeKey(other.id, first.id, 3000), false);
      assert.equal(await accounts.revokeKey(account.id, first.id, 3000), true);
      assert.equal(await accounts.revokeKey(account.id, first.id, 4000), false, 'not twice');
      const [revoked] = await accounts.listKeys(account.id);
      assert.equal(revoked?.revokedAt, 3000);
    });

    test('touchKey records a use unless one was recorded at or after `since`', async () => {
      const accounts = make();
      const hash = `touch-${email()}`;
      const { key: made } = await accounts.createWithKey(person(), key(hash), 1000);
      const used = async () => (await accounts.findKeyByHash(hash))?.key.lastUsedAt;
      await accounts.touchKey(made.id, 5000, 0);
      assert.equal(await used(), 5000);
      await accounts.touchKey(made.id, 6000, 5000);
      assert.equal(await used(), 5000, 'recorded at `since`: left');
      await accounts.touchKey(made.id, 7000, 5001);
      assert.equal(await used(), 7000);
    });

    test('deleteAccount: the account and its keys go; null when there is no such account', async () => {
      const accounts = make();
      const hash = `gone-${email()}`;
      const { account } = await accounts.createWithKey(person(), key(hash), 1000);
      const kept = await accounts.createWithPassword(person(), 'h', 1000);
      assert.deepEqual(await accounts.deleteAccount(account.id), []);
      assert.equal(await accounts.findById(account.id), null);
      assert.equal(await accounts.findKeyByHash(hash), null);
      assert.equal(await accounts.deleteAccount(account.id), null);
      assert.deepEqual(await accounts.findById(kept.id), kept);
    });
  });
}
