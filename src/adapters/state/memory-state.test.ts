import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryClickQuota } from './memory-click-quota.ts';
import { MemoryRotationCursor } from './memory-rotation-cursor.ts';

function fakeClock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

/** Every window of `width` consecutive positions holds each of `k` entries ⌊w/k⌋ or ⌈w/k⌉ times. */
function assertBalancedWindows(positions: number[], k: number, width: number): void {
  for (let start = 0; start + width <= positions.length; start++) {
    const counts = new Array<number>(k).fill(0);
    for (let i = start; i < start + width; i++) counts[positions[i]!]!++;
    for (const c of counts) {
      assert.ok(
        c === Math.floor(width / k) || c === Math.ceil(width / k),
        `window ${start}+${width}: ${counts.join(',')}`,
      );
    }
  }
}

describe('MemoryClickQuota', () => {
  test('200 concurrent claims on a cap of 50: exactly 50 pass', async () => {
    const quota = new MemoryClickQuota();
    const results = Array.from({ length: 200 }, () => quota.claim(1, 50, 0));
    assert.equal(results.filter(Boolean).length, 50);
    assert.deepEqual(results.slice(0, 50), new Array(50).fill(true));
    assert.equal(quota.claim(1, 50, 0), false);
  });

  test('seeds from known: known 48 on a cap of 50 lets exactly 2 more through', async () => {
    const quota = new MemoryClickQuota();
    const results = Array.from({ length: 200 }, () => quota.claim(7, 50, 48));
    assert.equal(results.filter(Boolean).length, 2);
  });

  test('takes the larger of its own count and known, so a stale known never resets it', async () => {
    const quota = new MemoryClickQuota();
    for (let i = 0; i < 10; i++) assert.equal(quota.claim(1, 50, 0), true);
    // The database lags (clicks not flushed yet): the count stays at 10.
    let passed = 0;
    for (let i = 0; i < 100; i++) if (quota.claim(1, 50, 3)) passed++;
    assert.equal(passed, 40);
    // The database is ahead (another writer): it wins.
    const other = new MemoryClickQuota();
    assert.equal(other.claim(2, 50, 0), true);
    assert.equal(other.claim(2, 50, 49), true);
    assert.equal(other.claim(2, 50, 0), false);
  });

  test('links are independent; forget re-seeds from known; a raised cap continues the count', async () => {
    const quota = new MemoryClickQuota();
    assert.equal(quota.claim(1, 1, 0), true);
    assert.equal(quota.claim(1, 1, 0), false);
    assert.equal(quota.claim(2, 1, 0), true);
    assert.equal(quota.claim(1, 2, 0), true);
    assert.equal(quota.claim(1, 2, 0), false);
    await quota.forget(1);
    assert.equal(quota.claim(1, 2, 0), true);
    await quota.forget(1);
    assert.equal(quota.claim(1, 2, 2), false);
  });

  test('a cap that is not a number refuses', async () => {
    const quota = new MemoryClickQuota();
    assert.equal(quota.claim(1, Number.NaN, 0), false);
    assert.equal(quota.claim(1, 5, Number.NaN), true);
  });

  test('answers synchronously, so the redirect needs no turn of the event loop', () => {
    const quota = new MemoryClickQuota();
    assert.equal(quota.claim(1, 1, 0), true);
    assert.equal(quota.claim(1, 1, 0), false);
    assert.equal(quota.exhausted(1, 1, 0), true);
    assert.equal(quota.exhausted(2, 1, 0), false);
  });

  test('drops links idle for two periods, keeps links in use', async () => {
    const clock = fakeClock();
    const quota = new MemoryClickQuota({ idleMs: 1000, now: clock.now });
    for (let id = 1; id <= 100; id++) quota.claim(id, 10, 0);
    assert.equal(quota.size, 100);
    clock.advance(1000);
    quota.claim(1, 10, 0); // link 1 stays in use, now at 2
    clock.advance(1000);
    quota.claim(1, 10, 0); // 3
    assert.ok(quota.size <= 2, `size ${quota.size}`);
    // Link 1 kept its count across the sweeps; link 2 is seeded again from known.
    let passed = 0;
    for (let i = 0; i < 20; i++) if (quota.claim(1, 10, 0)) passed++;
    assert.equal(passed, 7);
    passed = 0;
    for (let i = 0; i < 20; i++) if (quota.claim(2, 10, 1)) passed++;
    assert.equal(passed, 9);
    clock.advance(5000);
    quota.claim(3, 10, 0);
    assert.equal(quota.size, 1);
  });
});

describe('MemoryRotationCursor', () => {
  test('seeds from known (the last position served) and goes round', async () => {
    const cursor = new MemoryRotationCursor();
    const seen = [];
    for (let i = 0; i < 7; i++) seen.push(cursor.next(1, 3, 1));
    assert.deepEqual(seen, [2, 0, 1, 2, 0, 1, 2]);
    assert.equal(new MemoryRotationCursor().next(1, 3, -1), 0);
    assert.equal(new MemoryRotationCursor().next(1, 3, 7), 2);
  });

  test('1000 visits over 3 entries: 333 or 334 each, every window balanced', async () => {
    const cursor = new MemoryRotationCursor();
    const positions = Array.from({ length: 1000 }, () => cursor.next(9, 3, 0));
    const counts = [0, 0, 0];
    for (const p of positions) counts[p]!++;
    for (const c of counts) assert.ok(c === 333 || c === 334, counts.join(','));
    for (let width = 1; width <= 10; width++) assertBalancedWindows(positions, 3, width);
  });

  test('links are independent; a shrunk list stays in range', async () => {
    const cursor = new MemoryRotationCursor();
    assert.equal(cursor.next(1, 5, 3), 4);
    assert.equal(cursor.next(2, 5, 0), 1);
    assert.equal(cursor.next(1, 2, 0), 1);
    assert.equal(cursor.next(1, 2, 0), 0);
  });

  test('rejects a size below 1', async () => {
    assert.throws(() => new MemoryRotationCursor().next(1, 0, 0), RangeError);
  });

  test('answers synchronously', () => {
    const cursor = new MemoryRotationCursor();
    assert.deepEqual([cursor.next(1, 3, 0), cursor.next(1, 3, 0), cursor.next(1, 3, 0)], [1, 2, 0]);
  });

  test('drops idle links; they continue from known', async () => {
    const clock = fakeClock();
    const cursor = new MemoryRotationCursor({ idleMs: 1000, now: clock.now });
    for (let id = 1; id <= 50; id++) cursor.next(id, 3, 0);
    clock.advance(2500);
    assert.equal(cursor.next(1, 3, 2), 0);
    assert.equal(cursor.size, 1);
  });
});
