import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryAttemptLimiter } from './memory-attempt-limiter.ts';

function fakeClock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

const policy = { name: 'password', max: 5, windowSeconds: 60 };

describe('MemoryAttemptLimiter', () => {
  test('counts in the call itself: attempts made in one turn, before any is awaited, are limited', async () => {
    const limiter = new MemoryAttemptLimiter(policy);
    const pending = Array.from({ length: 20 }, () => limiter.consume('k'));
    const results = await Promise.all(pending);
    assert.deepEqual(
      results.map((r) => r.allowed),
      [...new Array<boolean>(5).fill(true), ...new Array<boolean>(15).fill(false)],
    );
  });

  test('retry-after counts down in whole seconds, rounded up, to the end of the window', async () => {
    const clock = fakeClock();
    const limiter = new MemoryAttemptLimiter(policy, { now: clock.now });
    for (let i = 0; i < 5; i++) {
      assert.equal((await limiter.consume('k')).allowed, true);
      clock.advance(10_000);
    }
    // Opened at 0 s, now 50 s.
    assert.deepEqual(await limiter.consume('k'), { allowed: false, retryAfterSeconds: 10 });
    clock.advance(9_500);
    assert.deepEqual(await limiter.consume('k'), { allowed: false, retryAfterSeconds: 1 });
    clock.advance(500);
    assert.deepEqual(await limiter.consume('k'), { allowed: true });
  });

  test('a window still open across a sweep keeps its count', async () => {
    const clock = fakeClock();
    const limiter = new MemoryAttemptLimiter({ name: 'password', max: 3, windowSeconds: 60 }, { now: clock.now });
    clock.advance(30_000);
    await limiter.consume('k'); // window 30 s → 90 s
    clock.advance(31_000); // 61 s: the generations swap
    await limiter.consume('k');
    clock.advance(28_000); // 89 s: they do not swap again before the window ends
    await limiter.consume('k');
    assert.deepEqual(await limiter.consume('k'), { allowed: false, retryAfterSeconds: 1 });
  });

  test('memory stays bounded: closed windows go, and a flood of keys is capped', async () => {
    const clock = fakeClock();
    const limiter = new MemoryAttemptLimiter(policy, { now: clock.now, maxKeys: 1000 });
    for (let i = 0; i < 500; i++) await limiter.consume(`198.51.100.${i}|1`);
    assert.equal(limiter.size, 500);
    clock.advance(60_000);
    await limiter.consume('fresh');
    clock.advance(60_000);
    await limiter.consume('fresh');
    assert.equal(limiter.size, 2); // 'fresh' is in both generations
    for (let i = 0; i < 10_000; i++) await limiter.consume(`flood${i}`);
    assert.ok(limiter.size <= 2000, `size ${String(limiter.size)}`);
    await limiter.reset('fresh');
    assert.ok(limiter.size <= 2000);
  });
});
