import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AccountStore, SessionStore } from '../../src/core/accounts/account-store.ts';

export interface SessionStoreSubject {
  /** A store pair on one database (sessions need their accounts), fresh or shared between tests. */
  stores(): { accounts: AccountStore; sessions: SessionStore };
}

let counter = 0;
const session = (tokenHash: string, now: number, lifetime = 60_000) => ({
  tokenHash,
  createdAt: now,
  expiresAt: now + lifetime,
  userAgent: 'ua',
  address: '203.0.113.1',
});

/** What every SessionStore promises: run against the in-memory fake and the SQL store on both engines. */
export function describeSessionStoreContract(name: string, subject: SessionStoreSubject): void {
  describe(`${name}: the SessionStore contract`, () => contract(subject));
}

function contract(subject: SessionStoreSubject): void {
  const account = async (accounts: AccountStore) =>
    accounts.createWithPassword(
      { email: `s${++counter}-${Date.now()}@example.com`, name: 's', timezone: 'UTC' },
      'hash',
      1000,
    );

  test('a session is found by its digest with its account, until it expires', async () => {
    const { accounts, sessions } = subject.stores();
    const owner = await account(accounts);
    const made = await sessions.insert(owner.id, session(`h-${counter}`, 1000));
    const found = await sessions.find(`h-${counter}`, 1001);
    assert.equal(found?.session.id, made.id);
    assert.equal(found?.account.id, owner.id);
    assert.equal(found?.session.lastSeenAt, 1000);
    assert.equal(await sessions.find(`h-${counter}`, 61_000), null, 'at its expiry it is gone');
    assert.equal(await sessions.find('unknown', 1001), null);
  });

  test('touch moves last seen; list shows live sessions newest first', async () => {
    const { accounts, sessions } = subject.stores();
    const owner = await account(accounts);
    const a = await sessions.insert(owner.id, session(`a-${counter}`, 1000));
    const b = await sessions.insert(owner.id, session(`b-${counter}`, 2000));
    await sessions.touch(a.id, 5000);
    const listed = await sessions.list(owner.id, 3000);
    assert.deepEqual(
      listed.map((s) => s.id),
      [b.id, a.id],
    );
    assert.equal(listed[1]!.lastSeenAt, 5000);
  });

  test("delete and deleteAll touch only the account's own sessions", async () => {
    const { accounts, sessions } = subject.stores();
    const owner = await account(accounts);
    const other = await account(accounts);
    const mine = await sessions.insert(owner.id, session(`m-${counter}`, 1000));
    const keep = await sessions.insert(owner.id, session(`k-${counter}`, 1000));
    const theirs = await sessions.insert(other.id, session(`t-${counter}`, 1000));
    assert.equal(await sessions.delete(owner.id, theirs.id), false);
    assert.equal(await sessions.delete(owner.id, mine.id), true);
    await sessions.insert(owner.id, session(`x-${counter}`, 1000));
    await sessions.deleteAll(owner.id, keep.id);
    assert.deepEqual(
      (await sessions.list(owner.id, 1001)).map((s) => s.id),
      [keep.id],
    );
    await sessions.deleteAll(owner.id, null);
    assert.deepEqual(await sessions.list(owner.id, 1001), []);
    assert.equal((await sessions.list(other.id, 1001)).length, 1);
  });
}
