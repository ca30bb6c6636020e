import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TooManyAttemptsError, ValidationError } from '../shared/errors.ts';
import { digest } from '../shared/secrets.ts';
import { PasswordResets, RESET_LIFETIME_MS } from './password-resets.ts';
import {
  CountingLimiter,
  ManualClock,
  MemoryAccountStore,
  MemorySessionStore,
  plainHasher,
} from '../../../test/support/fakes/account-fakes.ts';
import {
  MemoryChallengeStore,
  MemoryMailer,
  MemoryPasswordResetStore,
} from '../../../test/support/fakes/security-fakes.ts';

async function setup() {
  const accounts = new MemoryAccountStore();
  const sessions = new MemorySessionStore(accounts);
  const store = new MemoryPasswordResetStore();
  const mailer = new MemoryMailer();
  const clock = new ManualClock(Date.UTC(2026, 2, 10, 12));
  const failures: unknown[] = [];
  const challenges = new MemoryChallengeStore();
  const resets = new PasswordResets({
    resets: store,
    accounts,
    sessions,
    challenges,
    hasher: plainHasher,
    mailer,
    appUrl: 'https://links.example.test',
    perAddress: new CountingLimiter(100),
    perEmail: new CountingLimiter(2),
    onMailError: (e) => failures.push(e),
    clock,
  });
  const account = await accounts.createWithPassword(
    { email: 'ada@example.com', name: 'Ada', timezone: 'UTC' },
    'plain:old password',
    clock.now(),
  );
  await sessions.insert(account.id, {
    tokenHash: 'h',
    createdAt: clock.now(),
    expiresAt: clock.now() + 60_000,
    userAgent: null,
    address: null,
  });
  const tokenOf = (text: string) => /\/login\/reset\/([A-Za-z0-9_-]{43})$/m.exec(text)![1]!;
  return { resets, store, mailer, clock, accounts, sessions, challenges, account, tokenOf, failures };
}

test('asking mails a link on APP_URL to a known email and nothing to an unknown one; only the digest is stored', async () => {
  const { resets, store, mailer, tokenOf } = await setup();
  await resets.request('nobody@example.com', '203.0.113.9');
  assert.equal(mailer.sent.length, 0);
  await resets.request(' ADA@example.com ', '203.0.113.9');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(mailer.sent.length, 1);
  assert.equal(mailer.sent[0]!.to, 'ada@example.com');
  assert.match(mailer.sent[0]!.text, /^https:\/\/links\.example\.test\/login\/reset\/[A-Za-z0-9_-]{43}$/m);
  const token = tokenOf(mailer.sent[0]!.text);
  assert.ok(!store.resets.has(token));
  assert.ok(store.resets.has(digest(token)));
});

test('the password rules come before the token is spent; a used or hour-old token sets nothing', async () => {
  const { resets, clock, accounts, sessions, challenges, account } = await setup();
  await challenges.insert(account.id, 'pending', false, clock.now(), clock.now() + 60_000);
  const { link } = await resets.linkFor('ada@example.com');
  const token = link.split('/').pop()!;
  await assert.rejects(
    resets.reset(token, 'short'),
    (e: unknown) => e instanceof ValidationError && 'password' in e.fields,
  );
  assert.equal(await resets.usable(token), true);
  const done = await resets.reset(token, 'a new password here');
  assert.equal(done?.id, account.id);
  assert.equal(await accounts.passwordHashOf(account.id), 'plain:a new password here');
  assert.deepEqual(await sessions.list(account.id, clock.now()), [], 'every session ended');
  assert.equal(await challenges.find('pending', clock.now()), null, 'and every pending two-factor sign-in');
  assert.equal(await resets.reset(token, 'another password'), null, 'once');

  const { link: late } = await resets.linkFor('ada@example.com');
  clock.advance(RESET_LIFETIME_MS);
  assert.equal(await resets.usable(late.split('/').pop()!), false);
  assert.equal(await resets.reset(late.split('/').pop()!, 'another password'), null);
  assert.equal(await accounts.passwordHashOf(account.id), 'plain:a new password here');
});

test('asks are limited per email whether it has an account or not; a mail that fails is told, not thrown', async () => {
  const { resets, mailer, failures } = await setup();
  mailer.send = async () => {
    throw new Error('mail server away');
  };
  await resets.request('ada@example.com', '203.0.113.9');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(failures.length, 1);
  await resets.request('ada@example.com', '203.0.113.9');
  await assert.rejects(resets.request('ada@example.com', '203.0.113.9'), TooManyAttemptsError);
  await resets.request('x@example.com', '203.0.113.9');
  await resets.request('x@example.com', '203.0.113.9');
  await assert.rejects(resets.request('x@example.com', '203.0.113.9'), TooManyAttemptsError);
});
