// What every EmailVerificationStore promises (src/core/security/email-verification-store.ts), as
// sign-up's email proof relies on it (docs/design/teams.md): a person is pending from their first link
// until one is used; a link works once, before its end, and using one ends every other of theirs.
// Run against the SQL store on both engines (it has no fake).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EmailVerificationStore } from '../../src/core/security/email-verification-store.ts';

export interface EmailVerificationStoreSubject {
  store: EmailVerificationStore;
  /** A fresh person (the store's rows belong to one). */
  user: () => Promise<number>;
}

let made = 0;
const token = () => `t${process.pid.toString(36)}${Date.now().toString(36)}${(++made).toString(36)}`;
const HOUR = 3_600_000;

export function describeEmailVerificationStoreContract(name: string, make: () => EmailVerificationStoreSubject): void {
  describe(`${name}: the EmailVerificationStore contract`, () => {
    test('pending from the first link until it is used; a link works once; an unknown one finds nobody', async () => {
      const s = make();
      const [ada, bob] = [await s.user(), await s.user()];
      const link = token();
      assert.equal(await s.store.pending(ada), false);
      await s.store.insert(ada, link, 1000, 1000 + HOUR);
      assert.equal(await s.store.pending(ada), true);
      assert.equal(await s.store.pending(bob), false, 'another person is not');
      assert.equal(await s.store.use(token(), 2000), null);
      assert.equal(await s.store.use(link, 2000), ada);
      assert.equal(await s.store.pending(ada), false);
      assert.equal(await s.store.use(link, 3000), null, 'used once');
    });

    test('a link at or past its end does nothing; a newer one still works', async () => {
      const s = make();
      const ada = await s.user();
      const [old, fresh] = [token(), token()];
      await s.store.insert(ada, old, 1000, 1000 + HOUR);
      assert.equal(await s.store.use(old, 1000 + HOUR), null);
      assert.equal(await s.store.pending(ada), true);
      await s.store.insert(ada, fresh, 2 * HOUR, 3 * HOUR);
      assert.equal(await s.store.pending(ada), true, 'a second link keeps the person pending');
      assert.equal(await s.store.use(fresh, 2 * HOUR + 1), ada);
      assert.equal(await s.store.pending(ada), false);
    });

    test('using one link ends every other of the person’s; another person’s links stay', async () => {
      const s = make();
      const [ada, bob] = [await s.user(), await s.user()];
      const [first, second, bobs] = [token(), token(), token()];
      await s.store.insert(ada, first, 1000, 1000 + HOUR);
      await s.store.insert(ada, second, 2000, 2000 + HOUR);
      await s.store.insert(bob, bobs, 2000, 2000 + HOUR);
      assert.equal(await s.store.use(second, 3000), ada);
      assert.equal(await s.store.use(first, 3000), null);
      assert.equal(await s.store.pending(bob), true);
      assert.equal(await s.store.use(bobs, 3000), bob);
    });

    test('a new link after the proof makes the person pending again (an email change)', async () => {
      const s = make();
      const ada = await s.user();
      const [first, again] = [token(), token()];
      await s.store.insert(ada, first, 1000, 1000 + HOUR);
      assert.equal(await s.store.use(first, 2000), ada);
      await s.store.insert(ada, again, 3000, 3000 + HOUR);
      assert.equal(await s.store.pending(ada), true);
      assert.equal(await s.store.use(again, 4000), ada);
    });
  });
}
