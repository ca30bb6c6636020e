// What every SsoIdentityStore promises (src/core/sso/sso-identity-store.ts), as SSO sign-in relies
// on it: an identity is the issuer and subject together, a link is never moved to another person,
// and an account made for an identity has no password and is linked in the same step. Run
// against the in-memory fake (unit) and the SQL store on both engines.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AccountStore } from '../../src/core/accounts/account-store.ts';
import type { SsoIdentityStore } from '../../src/core/sso/sso-identity-store.ts';
import { ValidationError } from '../../src/core/shared/errors.ts';

export interface SsoIdentityStoreSubject {
  identities: SsoIdentityStore;
  /** The accounts the identities' people are (a person's id is their account's). */
  accounts: Pick<AccountStore, 'createWithPassword' | 'findById' | 'passwordHashOf'>;
}

let made = 0;
const fresh = (stem: string) => `${stem}${process.pid.toString(36)}${Date.now().toString(36)}${(++made).toString(36)}`;
const ISSUER = 'https://idp.example.com';

export function describeSsoIdentityStoreContract(name: string, make: () => SsoIdentityStoreSubject): void {
  describe(`${name}: the SsoIdentityStore contract`, () => {
    const person = async (s: SsoIdentityStoreSubject) =>
      (
        await s.accounts.createWithPassword(
          { email: `${fresh('sso')}@example.com`, name: 'SSO contract', timezone: 'UTC' },
          'hash',
          1000,
        )
      ).id;

    test('an identity is its issuer and subject together; unknown ones find nobody', async () => {
      const s = make();
      const [ada, bob] = [await person(s), await person(s)];
      const subject = fresh('sub');
      assert.equal(await s.identities.findUser({ issuer: ISSUER, subject }), null);
      await s.identities.link(ada, { issuer: ISSUER, subject }, 2000);
      await s.identities.link(bob, { issuer: 'https://other.example.com', subject }, 2000);
      assert.equal(await s.identities.findUser({ issuer: ISSUER, subject }), ada);
      assert.equal(await s.identities.findUser({ issuer: 'https://other.example.com', subject }), bob);
      assert.equal(await s.identities.findUser({ issuer: ISSUER, subject: `${subject}x` }), null);
      assert.equal(
        await s.identities.findUser({ issuer: ISSUER, subject: subject.toUpperCase() }),
        null,
        'a subject is compared exactly',
      );
    });

    test('an identity already linked keeps its person; a person may have several', async () => {
      const s = make();
      const [ada, eve] = [await person(s), await person(s)];
      const [one, two] = [
        { issuer: ISSUER, subject: fresh('sub') },
        { issuer: ISSUER, subject: fresh('sub') },
      ];
      await s.identities.link(ada, one, 2000);
      await s.identities.link(eve, one, 3000);
      await s.identities.link(ada, two, 3000);
      assert.equal(await s.identities.findUser(one), ada);
      assert.equal(await s.identities.findUser(two), ada);
    });

    test("a person's identities, oldest first; unlinking only their own", async () => {
      const s = make();
      const [ada, eve] = [await person(s), await person(s)];
      const [one, two] = [
        { issuer: ISSUER, subject: fresh('sub') },
        { issuer: ISSUER, subject: fresh('sub') },
      ];
      await s.identities.link(ada, two, 4000);
      await s.identities.link(ada, one, 3000);
      assert.deepEqual(await s.identities.ofUser(ada), [
        { ...one, createdAt: 3000 },
        { ...two, createdAt: 4000 },
      ]);
      assert.deepEqual(await s.identities.ofUser(eve), []);
      assert.equal(await s.identities.unlink(eve, one), 'absent', "another person's identity stays");
      assert.equal(await s.identities.findUser(one), ada);
      assert.equal(await s.identities.unlink(ada, one), 'unlinked');
      assert.equal(await s.identities.findUser(one), null);
      assert.deepEqual(await s.identities.ofUser(ada), [{ ...two, createdAt: 4000 }]);
      assert.equal(await s.identities.unlink(ada, one), 'absent', 'once');
      assert.equal(
        await s.identities.unlink(ada, two),
        'unlinked',
        'a person with a password may unlink the last identity',
      );
    });

    test("a password-less person's last identity stays: unlinking it is 'last'", async () => {
      const s = make();
      const one = { issuer: ISSUER, subject: fresh('sub') };
      const sam = await s.identities.createUser(
        { email: `${fresh('last')}@example.com`, name: 'Sam', timezone: 'UTC' },
        one,
        1000,
      );
      assert.equal(await s.identities.unlink(sam.id, one), 'last');
      assert.equal(await s.identities.findUser(one), sam.id);
    });

    test("two unlinks at once of a password-less person's two identities: one goes, the other stays as the last way in", async () => {
      const s = make();
      for (let round = 0; round < 5; round++) {
        const [one, two] = [
          { issuer: ISSUER, subject: fresh('sub') },
          { issuer: ISSUER, subject: fresh('sub') },
        ];
        const sam = await s.identities.createUser(
          { email: `${fresh('race')}@example.com`, name: 'Sam', timezone: 'UTC' },
          one,
          1000,
        );
        await s.identities.link(sam.id, two, 1001);
        const outcomes = await Promise.all([s.identities.unlink(sam.id, one), s.identities.unlink(sam.id, two)]);
        assert.deepEqual([...outcomes].sort(), ['last', 'unlinked'], `round ${round}`);
        assert.equal((await s.identities.ofUser(sam.id)).length, 1, `round ${round}: one way in is left`);
      }
    });

    test('createUser makes an account without a password, linked to the identity', async () => {
      const s = make();
      const identity = { issuer: ISSUER, subject: fresh('sub') };
      const email = `${fresh('new')}@example.com`;
      const account = await s.identities.createUser({ email, name: 'Ada', timezone: 'Europe/Paris' }, identity, 5000);
      assert.deepEqual(
        [account.email, account.name, account.timezone, account.createdAt, account.suspendedAt],
        [email, 'Ada', 'Europe/Paris', 5000, null],
      );
      assert.equal(await s.identities.findUser(identity), account.id);
      assert.equal((await s.accounts.findById(account.id))?.email, email);
      assert.equal(await s.accounts.passwordHashOf(account.id), null);
    });

    test('createUser with a taken email is the email field’s error, and links nothing', async () => {
      const s = make();
      const email = `${fresh('taken')}@example.com`;
      await s.accounts.createWithPassword({ email, name: 'First', timezone: 'UTC' }, 'hash', 1000);
      const identity = { issuer: ISSUER, subject: fresh('sub') };
      await assert.rejects(
        s.identities.createUser({ email, name: 'Second', timezone: 'UTC' }, identity, 2000),
        (e) => e instanceof ValidationError && 'email' in e.fields,
      );
      assert.equal(await s.identities.findUser(identity), null);
    });

    test('createUser for an identity linked already fails and makes no account', async () => {
      const s = make();
      const identity = { issuer: ISSUER, subject: fresh('sub') };
      const owner = await person(s);
      await s.identities.link(owner, identity, 1000);
      const email = `${fresh('dup')}@example.com`;
      await assert.rejects(s.identities.createUser({ email, name: 'Dup', timezone: 'UTC' }, identity, 2000));
      assert.equal(await s.identities.findUser(identity), owner);
      await assert.doesNotReject(
        s.accounts.createWithPassword({ email, name: 'Dup', timezone: 'UTC' }, 'hash', 3000),
        'the email was not taken by a half-made account',
      );
    });
  });
}
