// What every ClickQuota and RotationCursor must do, run against each implementation: the
// in-memory fakes and memory adapters (unit), Redis and the Redis-or-database fallback
// (integration). Each subject may be one instance or two sharing their state.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClickQuota, RotationCursor } from '../../src/core/clicks/ports.ts';

export interface Shared<T> {
  /** Two instances sharing state (the same object twice for a single-instance adapter). */
  a: T;
  b: T;
  /** A link id no other test of this run uses (a real link where the adapter needs one). */
  link: () => Promise<number>;
}

const interleaved = <T>(n: number, a: () => T | Promise<T>, b: () => T | Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => (i % 2 === 0 ? a() : b())));

export function describeClickQuotaContract(name: string, make: () => Shared<ClickQuota>): void {
  describe(`${name}: the ClickQuota contract`, () => {
    test('claims pass up to the cap, then none; exhausted says so', async () => {
      const { a, link } = make();
      const id = await link();
      const results = [];
      for (let i = 0; i < 7; i++) results.push(await a.claim(id, 5, 0));
      assert.deepEqual(results, [true, true, true, true, true, false, false]);
      assert.equal(await a.exhausted(id, 5, 0), true);
    });

    test('exhausted tells without claiming', async () => {
      const { a, link } = make();
      const id = await link();
      for (let i = 0; i < 3; i++) assert.equal(await a.exhausted(id, 2, 0), false);
      assert.equal(await a.claim(id, 2, 0), true);
      assert.equal(await a.claim(id, 2, 0), true);
      assert.equal(await a.exhausted(id, 2, 0), true);
    });

    test('seeded from known, and a known ahead of the count wins; a lagging one does not', async () => {
      const { a, link } = make();
      const seeded = await link();
      const passed = (
        await interleaved(
          10,
          () => a.claim(seeded, 5, 3),
          () => a.claim(seeded, 5, 3),
        )
      ).filter(Boolean).length;
      assert.equal(passed, 2);
      const ahead = await link();
      assert.equal(await a.claim(ahead, 20, 0), true);
      assert.equal(await a.claim(ahead, 20, 19), true);
      assert.equal(await a.claim(ahead, 20, 0), false);
    });

    test('concurrent claims from both instances: exactly the cap pass', async () => {
      const { a, b, link } = make();
      const id = await link();
      const results = await interleaved(
        60,
        () => a.claim(id, 25, 0),
        () => b.claim(id, 25, 0),
      );
      assert.equal(results.filter(Boolean).length, 25);
    });

    test('forget: the count is seeded from known again', async () => {
      const { a, link } = make();
      const id = await link();
      assert.equal(await a.claim(id, 1, 0), true);
      assert.equal(await a.claim(id, 1, 0), false);
      await a.forget(id);
      assert.equal(await a.claim(id, 1, 0), true);
    });
  });
}

export function describeRotationCursorContract(name: string, make: () => Shared<RotationCursor>): void {
  describe(`${name}: the RotationCursor contract`, () => {
    test('the first position follows known (the last served), then round robin', async () => {
      const { a, link } = make();
      const id = await link();
      const positions = [];
      for (let i = 0; i < 5; i++) positions.push(await a.next(id, 3, 0));
      assert.deepEqual(positions, [1, 2, 0, 1, 2]);
    });

    test('from no position served (known -1): the first entry first', async () => {
      const { a, link } = make();
      assert.equal(await a.next(await link(), 4, -1), 0);
    });

    test('concurrent visits from both instances over 3 entries: each entry an equal share', async () => {
      const { a, b, link } = make();
      const id = await link();
      const positions = await interleaved(
        90,
        () => a.next(id, 3, -1),
        () => b.next(id, 3, -1),
      );
      const counts = [0, 0, 0];
      for (const p of positions) counts[p]!++;
      assert.deepEqual(counts, [30, 30, 30]);
    });
  });
}
