import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AttemptLimiter, AttemptPolicy } from '../../src/core/shared/attempt-limiter.ts';

export interface AttemptLimiterSubject {
  /** A limiter on the real clock. Called twice for one test when `shared`: two instances. */
  make(policy: AttemptPolicy): AttemptLimiter;
  /** True when limiters made with one policy share their counts (one Redis). */
  shared: boolean;
  /**
   * Why the window's timing and the policy checks are not this subject's to keep, if they are
   * not: the core's counting fake has no clock and takes any policy.
   */
  countsOnly?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What every AttemptLimiter promises, whatever holds the counts: run against the in-memory
 * one and the Redis one. Keys are random so runs against one store never meet.
 */
export function describeAttemptLimiterContract(name: string, subject: AttemptLimiterSubject): void {
  describe(`${name}: the AttemptLimiter contract`, () => contract(subject));
}

function contract(subject: AttemptLimiterSubject): void {
  const timed = { skip: subject.countsOnly ?? false };
  const key = () => `203.0.113.7|${randomUUID()}`;

  test('100 attempts at once on a limit of 5: exactly 5 go ahead, the rest wait for the window', async () => {
    const policy = { name: 'password', max: 5, windowSeconds: 60 };
    const a = subject.make(policy);
    const b = subject.shared ? subject.make(policy) : a;
    const k = key();
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? a : b).consume(k)));
    assert.equal(results.filter((r) => r.allowed).length, 5);
    for (const r of results) {
      if (!r.allowed)
        assert.ok(r.retryAfterSeconds >= 59 && r.retryAfterSeconds <= 60, `retry after ${r.retryAfterSeconds}`);
    }
    assert.equal((await a.consume(k)).allowed, false);
  });

  test('keys and limiters of other names are independent', async () => {
    const password = subject.make({ name: 'password', max: 1, windowSeconds: 60 });
    const login = subject.make({ name: 'login', max: 1, windowSeconds: 60 });
    const k = key();
    assert.equal((await password.consume(k)).allowed, true);
    assert.equal((await password.consume(k)).allowed, false);
    assert.equal((await password.consume(key())).allowed, true);
    assert.equal((await login.consume(k)).allowed, true);
  });

  test('reset frees the key at once (a right answer after wrong ones)', async () => {
    const limiter = subject.make({ name: 'password', max: 2, windowSeconds: 60 });
    const k = key();
    await limiter.consume(k);
    await limiter.consume(k);
    assert.equal((await limiter.consume(k)).allowed, false);
    await limiter.reset(k);
    assert.equal((await limiter.consume(k)).allowed, true);
    assert.equal((await limiter.consume(k)).allowed, true);
    assert.equal((await limiter.consume(k)).allowed, false);
    await limiter.reset(key()); // an unknown key: nothing to do
  });

  test(
    'the window opens with the first attempt and ends on time: refused attempts do not extend it',
    timed,
    async () => {
      const limiter = subject.make({ name: 'password', max: 2, windowSeconds: 2 });
      const k = key();
      assert.equal((await limiter.consume(k)).allowed, true);
      assert.equal((await limiter.consume(k)).allowed, true);
      assert.deepEqual(await limiter.consume(k), { allowed: false, retryAfterSeconds: 2 });
      await sleep(1100);
      for (let i = 0; i < 10; i++) assert.deepEqual(await limiter.consume(k), { allowed: false, retryAfterSeconds: 1 });
      await sleep(1000);
      assert.equal((await limiter.consume(k)).allowed, true);
      assert.equal((await limiter.consume(k)).allowed, true);
      assert.equal((await limiter.consume(k)).allowed, false);
    },
  );

  test('rejects a policy it cannot apply', timed, () => {
    for (const policy of [
      { name: 'password', max: 0, windowSeconds: 60 },
      { name: 'password', max: 1.5, windowSeconds: 60 },
      { name: 'password', max: 5, windowSeconds: 0 },
      { name: 'password', max: 5, windowSeconds: 0.5 },
      { name: 'Pass word', max: 5, windowSeconds: 60 },
    ])
      assert.throws(() => subject.make(policy), RangeError, JSON.stringify(policy));
  });
}
