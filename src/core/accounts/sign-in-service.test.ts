import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SESSION_LIFETIME, SignInService } from './sign-in-service.ts';
import { TooManyAttemptsError, UnauthenticatedError, ValidationError } from '../shared/errors.ts';
import {
  CountingLimiter,
  ManualClock,
  MemoryAccountStore,
  MemorySessionStore,
  plainHasher,
} from '../../../test/support/fakes/account-fakes.ts';

const client = { address: '203.0.113.9', userAgent: 'test' };
const PASSWORD = 'long enough password';

function setup() {
  const accounts = new MemoryAccountStore();
  const sessions = new MemorySessionStore(accounts);
  const clock = new ManualClock();
  const perAccount = new CountingLimiter(3);
  const perAddress = new CountingLimiter(100);
  const service = new SignInService({ accounts, sessions, hasher: plainHasher, perAccount, perAddress, clock });
  return { service, accounts, sessions, clock, perAccount };
}

test('sign-up checks every field at once and stores the hash, never the password', async () => {
  const { service, accounts } = setup();
  await assert.rejects(service.signUp({ email: 'nope', password: 'short' }, client), (e: unknown) => {
    assert.ok(e instanceof ValidationError);
    assert.deepEqual(Object.keys(e.fields).sort(), ['email', 'password']);
    return true;
  });
  const made = await service.signUp({ email: ' Ada@Example.com ', password: PASSWORD }, client);
  assert.equal(made.account.email, 'ada@example.com');
  assert.equal(made.account.name, 'ada');
  assert.equal(accounts.accounts[0]!.passwordHash, `plain:${PASSWORD}`);
  await assert.rejects(service.signUp({ email: 'ada@example.com', password: PASSWORD }, client), ValidationError);
});

test('a wrong password, an unknown email and an account without a password all fail alike', async () => {
  const { service, accounts } = setup();
  await service.signUp({ email: 'a@example.com', password: PASSWORD }, client);
  await accounts.createWithKey(
    { email: 'cli@example.com', name: 'cli', timezone: 'UTC' },
    { hash: 'h', prefix: 'p', name: null },
    0,
  );
  for (const [email, password] of [
    ['a@example.com', 'wrong password'],
    ['nobody@example.com', PASSWORD],
    ['cli@example.com', ''],
  ] as const) {
    await assert.rejects(service.signIn(email, password, client, false), UnauthenticatedError);
  }
  const ok = await service.signIn('A@example.com', PASSWORD, client, false);
  assert.equal(ok.account.email, 'a@example.com');
});

test('guesses are counted before the password is checked; a right answer forgets them', async () => {
  const { service, perAccount } = setup();
  await service.signUp({ email: 'a@example.com', password: PASSWORD }, client);
  await assert.rejects(service.signIn('a@example.com', 'x', client, false), UnauthenticatedError);
  await service.signIn('a@example.com', PASSWORD, client, false);
  assert.equal(perAccount.counts.has('a@example.com'), false);
  for (let i = 0; i < 3; i++)
    await assert.rejects(service.signIn('a@example.com', 'x', client, false), UnauthenticatedError);
  await assert.rejects(service.signIn('a@example.com', PASSWORD, client, false), TooManyAttemptsError);
});

test('a session resolves until it ends: remembered ones last 30 days, others a day', async () => {
  const { service, clock } = setup();
  await service.signUp({ email: 'a@example.com', password: PASSWORD }, client);
  const short = await service.signIn('a@example.com', PASSWORD, client, false);
  const long = await service.signIn('a@example.com', PASSWORD, client, true);
  assert.ok(await service.resolve(short.token));
  clock.advance(SESSION_LIFETIME.short + 1);
  assert.equal(await service.resolve(short.token), null);
  assert.ok(await service.resolve(long.token));
  clock.advance(SESSION_LIFETIME.remembered);
  assert.equal(await service.resolve(long.token), null);
  assert.equal(await service.resolve('not a token'), null);
});

test('a suspended account signs in nowhere and its sessions stop resolving', async () => {
  const { service, accounts } = setup();
  const made = await service.signUp({ email: 'a@example.com', password: PASSWORD }, client);
  accounts.accounts[0]!.suspendedAt = 1;
  assert.equal(await service.resolve(made.token), null);
  await assert.rejects(service.signIn('a@example.com', PASSWORD, client, false), UnauthenticatedError);
});

test('changing the password ends every session and opens one for the browser that asked', async () => {
  const { service } = setup();
  const first = await service.signUp({ email: 'a@example.com', password: PASSWORD }, client);
  const other = await service.signIn('a@example.com', PASSWORD, client, false);
  await assert.rejects(
    service.changePassword(first.account, 'wrong', 'another long password', client),
    (e: unknown) => {
      assert.ok(e instanceof ValidationError);
      assert.ok('current_password' in e.fields);
      return true;
    },
  );
  const fresh = await service.changePassword(first.account, PASSWORD, 'another long password', client);
  assert.equal(await service.resolve(first.token), null);
  assert.equal(await service.resolve(other.token), null);
  assert.ok(await service.resolve(fresh.token));
  await service.signIn('a@example.com', 'another long password', client, false);
});

test('signing out everywhere else keeps this session', async () => {
  const { service } = setup();
  const mine = await service.signUp({ email: 'a@example.com', password: PASSWORD }, client);
  const other = await service.signIn('a@example.com', PASSWORD, client, false);
  await service.endOtherSessions(mine.account.id, mine.session.id);
  assert.ok(await service.resolve(mine.token));
  assert.equal(await service.resolve(other.token), null);
  assert.deepEqual(
    (await service.list(mine.account.id)).map((s) => s.id),
    [mine.session.id],
  );
});

test('guesses at the current password when changing it count against the account’s limit', async () => {
  const { service } = setup();
  const me = await service.signUp({ email: 'a@example.com', password: PASSWORD }, client);
  for (let i = 0; i < 3; i++)
    await assert.rejects(
      service.changePassword(me.account, `wrong ${i}`, 'another long password', client),
      ValidationError,
    );
  await assert.rejects(
    service.changePassword(me.account, PASSWORD, 'another long password', client),
    TooManyAttemptsError,
  );
});

test('sign-ups are counted per address and per normalised email before anything is checked, refused ones too', async () => {
  const accounts = new MemoryAccountStore();
  const perAddress = new CountingLimiter(2);
  const perEmail = new CountingLimiter(1);
  const service = new SignInService({
    accounts,
    sessions: new MemorySessionStore(accounts),
    hasher: plainHasher,
    perAccount: new CountingLimiter(100),
    perAddress: new CountingLimiter(100),
    signUps: { perAddress, perEmail },
    clock: new ManualClock(),
  });
  await assert.rejects(service.signUp({ email: 'nope', password: 'short' }, client), ValidationError);
  await service.signUp({ email: 'jose\u0301@example.com', password: PASSWORD }, client);
  assert.deepEqual([...perEmail.counts.keys()], ['nope', 'jos\u00e9@example.com']);
  await assert.rejects(
    service.signUp({ email: 'b@example.com', password: PASSWORD }, client),
    (e) => e instanceof TooManyAttemptsError && e.retryAfterSeconds === 60,
  );
  await assert.rejects(
    service.signUp({ email: ' JOS\u00c9@example.com', password: PASSWORD }, { ...client, address: '198.51.100.1' }),
    TooManyAttemptsError,
  );
  assert.equal(accounts.accounts.length, 1);
});
