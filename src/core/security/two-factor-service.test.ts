import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TooManyAttemptsError, UnauthenticatedError, ValidationError } from '../shared/errors.ts';
import { SignInService } from '../accounts/sign-in-service.ts';
import { TwoFactorService } from './two-factor-service.ts';
import { TwoStepSignIn } from './two-step-sign-in.ts';
import {
  CountingLimiter,
  ManualClock,
  MemoryAccountStore,
  MemorySessionStore,
  plainHasher,
} from '../../../test/support/fakes/account-fakes.ts';
import {
  MemoryChallengeStore,
  MemoryTwoFactorStore,
  codeAtStep,
  stepTotp,
} from '../../../test/support/fakes/security-fakes.ts';

const PASSWORD = 'long enough password';
const client = { address: '203.0.113.9', userAgent: 'test' };

async function setup() {
  const accounts = new MemoryAccountStore();
  const sessions = new MemorySessionStore(accounts);
  const clock = new ManualClock(Date.UTC(2026, 2, 10, 12));
  const signIn = new SignInService({
    accounts,
    sessions,
    hasher: plainHasher,
    perAccount: new CountingLimiter(100),
    perAddress: new CountingLimiter(100),
    clock,
  });
  const store = new MemoryTwoFactorStore();
  const attempts = new CountingLimiter(5);
  const twoFactor = new TwoFactorService({
    store,
    totp: stepTotp,
    attempts,
    confirmPassword: (account, password, field) => signIn.confirmPassword(account, password, field),
    issuer: 'linkpix',
    clock,
  });
  const challenges = new MemoryChallengeStore();
  const twoStep = new TwoStepSignIn({ signIn, twoFactor, challenges, accounts, clock });
  const { account } = await signIn.signUp({ email: 'ada@example.com', password: PASSWORD }, client);
  const now = () => codeAtStep(Math.floor(clock.now() / 30_000));
  return { twoFactor, twoStep, store, attempts, clock, account, sessions, challenges, now };
}

async function enrolled() {
  const s = await setup();
  await s.twoFactor.begin(s.account);
  const codes = await s.twoFactor.confirm(s.account, s.now());
  s.clock.advance(30_000);
  return { ...s, codes };
}

const isInvalid = (field: string) => (e: unknown) => e instanceof ValidationError && field in e.fields;

test('enrolment: the URI names the person, a wrong code confirms nothing, the right one gives ten distinct recovery codes', async () => {
  const { twoFactor, account, now } = await setup();
  assert.deepEqual(await twoFactor.status(account), { state: 'off' });
  const { uri } = await twoFactor.begin(account);
  assert.match(uri, /ada@example\.com/);
  assert.equal((await twoFactor.status(account)).state, 'enrolling');
  await assert.rejects(twoFactor.confirm(account, '999999'), isInvalid('code'));
  assert.equal(await twoFactor.enabled(account.id), false);
  const codes = await twoFactor.confirm(account, ` ${now().slice(0, 3)} ${now().slice(3)} `);
  assert.equal(codes.length, 10);
  assert.equal(new Set(codes).size, 10);
  for (const code of codes) assert.match(code, /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
  assert.equal(await twoFactor.enabled(account.id), true);
  await assert.rejects(twoFactor.begin(account), isInvalid('code'), 'no new secret while it is on');
});

test('a code is accepted once: the confirming code, and any code, cannot be replayed in its step', async () => {
  const s = await setup();
  await s.twoFactor.begin(s.account);
  const first = s.now();
  await s.twoFactor.confirm(s.account, first);
  await assert.rejects(s.twoFactor.verify(s.account.id, first), isInvalid('code'), 'the confirming code is spent');
  s.clock.advance(30_000);
  assert.equal(await s.twoFactor.verify(s.account.id, s.now()), 'totp');
  await assert.rejects(s.twoFactor.verify(s.account.id, s.now()), isInvalid('code'));
});

test('recovery codes: each once, in any case and with or without dashes; new ones replace every old one', async () => {
  const { twoFactor, account, codes } = await enrolled();
  assert.equal(await twoFactor.verify(account.id, codes[0]!.toLowerCase().replace(/-/g, '')), 'recovery');
  await assert.rejects(twoFactor.verify(account.id, codes[0]!), isInvalid('code'));
  assert.deepEqual(await twoFactor.status(account), {
    state: 'on',
    since: Date.UTC(2026, 2, 10, 12),
    recoveryCodesLeft: 9,
  });
  const fresh = await twoFactor.regenerate(account, codes[1]!);
  await assert.rejects(twoFactor.verify(account.id, codes[2]!), isInvalid('code'), 'old codes end');
  assert.equal(await twoFactor.verify(account.id, fresh[0]!), 'recovery');
});

test('every guess counts before anything is checked, a right code too; a right one forgets the count', async () => {
  const { twoFactor, account, attempts, now } = await enrolled();
  for (let i = 0; i < 4; i++) await assert.rejects(twoFactor.verify(account.id, '999999'), isInvalid('code'));
  assert.equal(await twoFactor.verify(account.id, now()), 'totp');
  assert.equal(attempts.counts.get(String(account.id)), undefined);
  for (let i = 0; i < 5; i++) await assert.rejects(twoFactor.verify(account.id, '999999'), isInvalid('code'));
  await assert.rejects(twoFactor.verify(account.id, now()), TooManyAttemptsError);
});

test('turning it off needs the password and a code; cancelling only drops an unconfirmed enrolment', async () => {
  const { twoFactor, account, codes, now } = await enrolled();
  await twoFactor.cancel(account);
  assert.equal(await twoFactor.enabled(account.id), true, 'cancel is not a way to turn it off');
  await assert.rejects(twoFactor.disable(account, 'wrong password', now()), isInvalid('password'));
  await assert.rejects(twoFactor.disable(account, PASSWORD, '999999'), isInvalid('code'));
  assert.equal(await twoFactor.enabled(account.id), true);
  await twoFactor.disable(account, PASSWORD, codes[3]!);
  assert.deepEqual(await twoFactor.status(account), { state: 'off' });
  await twoFactor.begin(account);
  await twoFactor.cancel(account);
  assert.deepEqual(await twoFactor.status(account), { state: 'off' });
});

test('two-step sign-in: no session before the code; the challenge is used once and expires', async () => {
  const { twoStep, account, sessions, now, clock, codes } = await enrolled();
  const before = (await sessions.list(account.id, clock.now())).length;
  const step = await twoStep.begin('ada@example.com', PASSWORD, client, true);
  assert.equal(step.kind, 'code');
  if (step.kind !== 'code') return;
  assert.equal((await sessions.list(account.id, clock.now())).length, before, 'no session yet');
  await assert.rejects(twoStep.complete(step.token, '999999', client), isInvalid('code'));
  const done = await twoStep.complete(step.token, now(), client);
  assert.equal(done.remember, true);
  assert.equal(done.signedIn.account.id, account.id);
  await assert.rejects(twoStep.complete(step.token, codes[0]!, client), UnauthenticatedError, 'used once');

  const late = await twoStep.begin('ada@example.com', PASSWORD, client, false);
  clock.advance(10 * 60_000);
  if (late.kind === 'code')
    await assert.rejects(twoStep.complete(late.token, codes[0]!, client), UnauthenticatedError, 'ten minutes at most');
  await assert.rejects(twoStep.complete('not-a-token', codes[0]!, client), UnauthenticatedError);
});
