// What every ClickClaimStore and RotationStore promises (src/core/clicks/ports.ts), as the
// Redis-or-database fallbacks rely on them while Redis is away: run against the in-memory fakes
// (unit) and the SQL stores on both engines. Races between two pools: test/integration/state.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClickClaimStore, RotationStore } from '../../src/core/clicks/ports.ts';

export interface ClaimStoresSubject {
  claims: ClickClaimStore;
  rotations: RotationStore;
  /** A fresh link with these clicks. */
  link: (clicks?: number) => Promise<number>;
}

/** An id no link has. */
const MISSING = 2 ** 31 - 1;

export function describeClaimStoresContract(name: string, make: () => ClaimStoresSubject): void {
  describe(`${name}: the ClickClaimStore contract`, () => {
    test('opened at no less than the link’s clicks and the floor; claims pass up to the cap, then refuse', async () => {
      const { claims, link } = make();
      const id = await link(7);
      assert.equal(await claims.claimed(id), null);
      assert.equal(await claims.open(id, 3, { lostAt: 0 }), 'open');
      assert.equal(await claims.claimed(id), 7);
      assert.equal(await claims.open(id, 10, { lostAt: 0 }), 'open');
      assert.equal(await claims.open(id, 4, { lostAt: 0 }), 'open');
      assert.equal(await claims.claimed(id), 10, 'the count never goes down');
      assert.deepEqual(
        [await claims.claim(id, 12), await claims.claim(id, 12), await claims.claim(id, 12)],
        ['granted', 'granted', 'refused'],
      );
      assert.equal(await claims.claimed(id), 12);
    });

    test('a closed count grants nothing; it opens again only for a loss after its closing, or by force', async () => {
      const { claims, link } = make();
      const id = await link();
      await claims.open(id, 0, { lostAt: 0 });
      assert.equal(await claims.claim(id, 5), 'granted');
      assert.equal(await claims.claim(id, 5), 'granted');
      assert.equal(await claims.close(id, 1000), 2);
      assert.equal(await claims.claim(id, 5), 'closed');
      assert.equal(await claims.open(id, 0, { lostAt: 999 }), 'closed');
      assert.equal(await claims.claim(id, 5), 'closed');
      assert.equal(await claims.open(id, 1, { lostAt: 1000 }), 'open');
      assert.equal(await claims.claimed(id), 2);
      await claims.close(id, 2000);
      assert.equal(await claims.open(id, 0, { lostAt: 0, force: true }), 'open');
      assert.equal(await claims.claim(id, 3), 'granted');
      assert.equal(await claims.claim(id, 3), 'refused');
    });

    test('closing answers no less than the link’s clicks, opened or not: what a Redis restarted empty starts from', async () => {
      const { claims, link } = make();
      const never = await link(7);
      assert.equal(await claims.close(never, 1000), 7);
      assert.equal(await claims.claim(never, 20), 'closed', 'closing opens nothing');
      const opened = await link(7);
      await claims.open(opened, 8, { lostAt: 0 });
      assert.equal(await claims.claim(opened, 20), 'granted');
      assert.equal(await claims.close(opened, 1000), 9);
      assert.equal(await claims.close(MISSING, 1000), null, 'a missing link has no count');
    });

    test('a count closed before it was ever opened is closed: a loss before the closing does not open it', async () => {
      const { claims, link } = make();
      const id = await link(4);
      assert.equal(await claims.close(id, 1000), 4);
      assert.equal(await claims.open(id, 0, { lostAt: 999 }), 'closed');
      assert.equal(await claims.claim(id, 20), 'closed');
      assert.equal(await claims.open(id, 0, { lostAt: 1000 }), 'open', 'a loss after the closing opens it');
      assert.equal(await claims.claimed(id), 4);
      assert.equal(await claims.claim(id, 5), 'granted');
    });

    test('a missing link is gone, a link never opened is missing; a cap that is not a number refuses', async () => {
      const { claims, link } = make();
      assert.equal(await claims.open(MISSING, 0, { lostAt: 0 }), 'gone');
      assert.equal(await claims.claim(MISSING, 5), 'missing');
      const id = await link();
      assert.equal(await claims.claim(id, 5), 'missing');
      await claims.open(id, Number.NaN, { lostAt: 0 });
      assert.equal(await claims.claimed(id), 0, 'a floor that is not a number counts as none');
      assert.equal(await claims.claim(id, Number.NaN), 'refused');
      assert.equal(await claims.claimed(id), 0);
    });
  });

  describe(`${name}: the RotationStore contract`, () => {
    test('the first position follows known, then round-robin; each link its own', async () => {
      const { rotations, link } = make();
      const [a, b] = [await link(), await link()];
      assert.deepEqual(
        [
          await rotations.next(a, 3, 1),
          await rotations.next(a, 3, 1),
          await rotations.next(a, 3, 1),
          await rotations.next(a, 3, 1),
        ],
        [2, 0, 1, 2],
      );
      assert.equal(await rotations.next(b, 3, 2), 0, 'after the last entry comes the first');
      assert.equal(await rotations.next(b, 3, Number.NaN), 1, 'known only seeds a new position');
    });

    test('take answers the position once and removes it; a known that is not a number starts at the first', async () => {
      const { rotations, link } = make();
      const id = await link();
      assert.equal(await rotations.take(id), null);
      await rotations.next(id, 4, 0);
      assert.equal(await rotations.take(id), 1);
      assert.equal(await rotations.take(id), null);
      assert.equal(await rotations.next(id, 4, Number.NaN), 0);
      assert.equal(await rotations.next(id, 4, -1), 1, 'kept: known is not read again');
    });

    test('a size that is not a positive integer is a RangeError', async () => {
      const { rotations, link } = make();
      const id = await link();
      await assert.rejects(() => rotations.next(id, 0, 0), RangeError);
      await assert.rejects(() => rotations.next(id, 1.5, 0), RangeError);
    });
  });
}
