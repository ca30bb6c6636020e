import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryAccountStore } from '../../../test/support/fakes/account-fakes.ts';
import { MemorySsoIdentityStore } from '../../../test/support/fakes/sso-fakes.ts';
import type { Account } from '../accounts/account.ts';
import type { FirstStep } from '../security/two-step-sign-in.ts';
import { SsoSignIn, type SsoClaims } from './sso-sign-in.ts';

const CLIENT = { address: '192.0.2.1', userAgent: null };

/** The identities in memory (the fake the contract suite holds to the SQL store's answers). */
function setup(options: { signup?: 'open' | 'closed'; allowedDomains?: string[] } = {}) {
  const accounts = new MemoryAccountStore();
  const identities = new MemorySsoIdentityStore(accounts);
  const proven: Account[] = [];
  const sso = new SsoSignIn({
    identities,
    accounts,
    twoStep: { proven: async (account): Promise<FirstStep> => (proven.push(account), { kind: 'code', token: 't' }) },
    signup: options.signup ?? 'open',
    allowedDomains: options.allowedDomains ?? [],
    clock: { now: () => 1000 },
  });
  return { sso, accounts, proven };
}

const claims = (over: Partial<SsoClaims> = {}): SsoClaims => ({
  issuer: 'https://id.example',
  subject: 's1',
  email: 'ada@example.com',
  emailVerified: true,
  name: 'Ada',
  ...over,
});

test('a new person: an account named as the provider says; the same subject later is the same account whatever its email', async () => {
  const { sso, accounts, proven } = setup();
  assert.equal((await sso.complete(claims(), CLIENT)).kind, 'code');
  assert.equal(proven[0]?.name, 'Ada');
  await sso.complete(claims({ email: 'ada@elsewhere.example', emailVerified: false }), CLIENT);
  assert.equal(proven[1]?.id, proven[0]?.id);
  assert.equal(accounts.accounts.length, 1);
});

test('a verified email is matched; an unverified one, or none, is refused', async () => {
  const { sso, accounts, proven } = setup({ signup: 'closed' });
  const ada = await accounts.createWithPassword({ email: 'ada@example.com', name: 'Ada', timezone: 'UTC' }, 'h', 0);
  assert.deepEqual(await sso.complete(claims({ subject: 'x', emailVerified: false }), CLIENT), {
    kind: 'refused',
    reason: 'unverified',
  });
  assert.deepEqual(await sso.complete(claims({ subject: 'y', email: null }), CLIENT), {
    kind: 'refused',
    reason: 'unverified',
  });
  await sso.complete(claims({ subject: 'z', email: 'ADA@example.com' }), CLIENT);
  assert.equal(proven[0]?.id, ada.id);
});

test("sign-up open: an account someone made with a password is not joined to the provider's person", async () => {
  const { sso, accounts, proven } = setup({ signup: 'open' });
  await accounts.createWithPassword({ email: 'ada@example.com', name: 'Squatter', timezone: 'UTC' }, 'h', 0);
  assert.deepEqual(await sso.complete(claims({ subject: 'z' }), CLIENT), { kind: 'refused', reason: 'password' });
  assert.equal(proven.length, 0);
  assert.deepEqual(
    await sso.complete(claims({ subject: 'z' }), CLIENT),
    { kind: 'refused', reason: 'password' },
    'nothing was linked',
  );
});

test('allowed domains (any case), sign-up closed, a suspended account', async () => {
  const only = setup({ allowedDomains: ['example.com'] });
  assert.deepEqual(await only.sso.complete(claims({ email: 'eve@example.com.evil' }), CLIENT), {
    kind: 'refused',
    reason: 'domain',
  });
  assert.equal((await only.sso.complete(claims({ email: 'Eve@EXAMPLE.com' }), CLIENT)).kind, 'code');
  const closed = setup({ signup: 'closed' });
  assert.deepEqual(await closed.sso.complete(claims(), CLIENT), { kind: 'refused', reason: 'closed' });
  const made = await closed.accounts.createWithPassword(
    { email: 'ada@example.com', name: 'Ada', timezone: 'UTC' },
    'h',
    0,
  );
  closed.accounts.accounts.find((a) => a.id === made.id)!.suspendedAt = 5;
  assert.deepEqual(await closed.sso.complete(claims(), CLIENT), { kind: 'refused', reason: 'suspended' });
});
