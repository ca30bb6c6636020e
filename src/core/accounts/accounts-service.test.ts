import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AccountsService, KEY_TOUCH_EVERY_MS } from './accounts-service.ts';
import { SignInService } from './sign-in-service.ts';
import { NotFoundError, TooManyAttemptsError, ValidationError } from '../shared/errors.ts';
import type { RedirectInvalidation } from '../redirect/redirect-events.ts';
import {
  CountingLimiter,
  ManualClock,
  MemoryAccountStore,
  MemorySessionStore,
  plainHasher,
} from '../../../test/support/fakes/account-fakes.ts';
import { TEST_ACTOR } from '../../../test/support/audit-actor.ts';

const PROFILE = { email: 'a@example.com', name: 'A', timezone: 'UTC' };

function setup() {
  const store = new MemoryAccountStore();
  const clock = new ManualClock();
  const changed: number[] = [];
  const forgotten: number[] = [];
  const invalidation: RedirectInvalidation = { linkChanged: () => {}, accountChanged: (id) => changed.push(id) };
  const service = new AccountsService(store, clock, {
    invalidation,
    forgetQuota: async (id) => void forgotten.push(id),
  });
  return { store, clock, service, changed, forgotten };
}

test("a key's use is written at most once a minute, however many requests it makes", async () => {
  const { store, clock, service } = setup();
  const account = await store.createWithPassword(PROFILE, 'plain:x', clock.now());
  const { key, apiKey } = await service.createKeyFor(account.id, 'cron', TEST_ACTOR);
  const first = clock.now();
  for (let i = 0; i < 10; i++) {
    await service.authenticate(apiKey);
    clock.advance(5000);
  }
  assert.deepEqual(store.touches, [[key.id, first]], 'ten requests in fifty seconds: one write');
  clock.advance(KEY_TOUCH_EVERY_MS);
  await service.authenticate(apiKey);
  assert.equal(store.touches.length, 2);
  assert.equal((await service.listKeysOf(account.id))[0]!.lastUsedAt, clock.now());
});

test('keys by account: a name is required, another account cannot revoke, twice is harmless', async () => {
  const { store, clock, service } = setup();
  const mine = await store.createWithPassword(PROFILE, 'plain:x', clock.now());
  const theirs = await store.createWithPassword({ ...PROFILE, email: 'b@example.com' }, 'plain:x', clock.now());
  for (const name of ['', '  ', 'x'.repeat(65)])
    await assert.rejects(service.createKeyFor(mine.id, name, TEST_ACTOR), ValidationError);
  const { key } = await service.createKeyFor(mine.id, '  Zapier  ', TEST_ACTOR);
  assert.equal(key.name, 'Zapier');
  await assert.rejects(service.revokeKeyOf(theirs.id, key.id, TEST_ACTOR), NotFoundError);
  await service.revokeKeyOf(mine.id, key.id, TEST_ACTOR);
  await service.revokeKeyOf(mine.id, key.id, TEST_ACTOR);
  assert.notEqual((await service.listKeysOf(mine.id))[0]!.revokedAt, null);
});

test("the profile: normalised, and another account's email refused while its own is kept", async () => {
  const { store, clock, service } = setup();
  const mine = await store.createWithPassword(PROFILE, 'plain:x', clock.now());
  await store.createWithPassword({ ...PROFILE, email: 'b@example.com' }, 'plain:x', clock.now());
  await assert.rejects(
    service.updateProfile(mine.id, { email: 'B@example.com' }, TEST_ACTOR),
    (e: unknown) => e instanceof ValidationError && 'email' in e.fields,
  );
  await assert.rejects(
    service.updateProfile(mine.id, { email: 'a@example.com', timezone: 'Nowhere/Else' }, TEST_ACTOR),
    ValidationError,
  );
  const updated = await service.updateProfile(
    mine.id,
    { email: ' A@Example.com ', name: ' Ada ', timezone: 'Europe/Paris' },
    TEST_ACTOR,
  );
  assert.deepEqual([updated.email, updated.name, updated.timezone], ['a@example.com', 'Ada', 'Europe/Paris']);
});

test('deleting an account tells the redirect and forgets the click caps of its links', async () => {
  const { store, clock, service, changed, forgotten } = setup();
  const account = await store.createWithPassword(PROFILE, 'plain:x', clock.now());
  store.deleteAccount = async (id) => (id === account.id ? [11, 12] : null);
  await service.deleteAccount(account.id);
  assert.deepEqual({ changed, forgotten }, { changed: [account.id], forgotten: [11, 12] });
  await assert.rejects(service.deleteAccount(999), NotFoundError);
  assert.deepEqual(changed, [account.id], 'nothing to tell when there was no such account');
});

test("confirming the password: a wrong one names the field, and guesses count against the account's limit", async () => {
  const store = new MemoryAccountStore();
  const perAccount = new CountingLimiter(3);
  const signIn = new SignInService({
    accounts: store,
    sessions: new MemorySessionStore(store),
    hasher: plainHasher,
    perAccount,
    perAddress: new CountingLimiter(100),
    clock: new ManualClock(),
  });
  const account = await store.createWithPassword(PROFILE, 'plain:right password', 0);
  await signIn.confirmPassword(account, 'right password');
  await assert.rejects(
    signIn.confirmPassword(account, 'wrong'),
    (e: unknown) => e instanceof ValidationError && 'password' in e.fields,
  );
  await signIn.confirmPassword(account, 'right password');
  await assert.rejects(
    signIn.confirmPassword(account, 'right password'),
    TooManyAttemptsError,
    'the fourth try in the window is refused unread',
  );
});

test('a new email from a client spends a sign-up try per address and per email, refused or not; the same email spends none', async () => {
  const store = new MemoryAccountStore();
  const clock = new ManualClock();
  const [perAddress, perEmail] = [new CountingLimiter(2), new CountingLimiter(5)];
  const service = new AccountsService(store, clock, { signUps: { perAddress, perEmail } });
  const mine = await store.createWithPassword(PROFILE, 'plain:x', clock.now());
  const client = { address: '198.51.100.1' };
  await service.updateProfile(mine.id, { email: ' A@example.com ', name: 'Ada' }, TEST_ACTOR, client);
  assert.equal(perAddress.counts.size, 0, 'its own email, respelled');
  await assert.rejects(service.updateProfile(mine.id, { email: 'not an email' }, TEST_ACTOR, client), ValidationError);
  await service.updateProfile(mine.id, { email: 'B@example.com' }, TEST_ACTOR, client);
  assert.deepEqual([perAddress.counts.get('198.51.100.1'), perEmail.counts.get('b@example.com')], [2, 1]);
  await assert.rejects(
    service.updateProfile(mine.id, { email: 'c@example.com' }, TEST_ACTOR, client),
    TooManyAttemptsError,
  );
  assert.equal((await store.findById(mine.id))?.email, 'b@example.com');
  await service.updateProfile(mine.id, { email: 'c@example.com' }, TEST_ACTOR);
  assert.equal((await store.findById(mine.id))?.email, 'c@example.com', 'a change without a client spends nothing');
});
