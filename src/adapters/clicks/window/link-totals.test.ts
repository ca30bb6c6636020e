import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LinkTotals } from './link-totals.ts';

const batch = (counts: Array<[number, number]>, rotations: Array<[number, number]> = []) => ({
  counts: new Map(counts),
  rotations: new Map(rotations),
});

test('counts add up per link; the latest rotation position wins; drain starts empty again', () => {
  const totals = new LinkTotals();
  totals.add(
    batch(
      [
        [1, 2],
        [2, 1],
      ],
      [[2, 0]],
    ),
  );
  totals.add(batch([[1, 3]], [[2, 1]]));
  assert.equal(totals.size, 2);
  const drained = totals.drain();
  assert.deepEqual(
    [...drained.counts],
    [
      [1, 5],
      [2, 1],
    ],
  );
  assert.deepEqual([...drained.rotations], [[2, 1]]);
  assert.equal(totals.size, 0);
});

test('putBack keeps every count, and a rotation seen since the drain stays the latest', () => {
  const totals = new LinkTotals();
  totals.add(batch([[1, 2]], [[1, 0]]));
  const drained = totals.drain();
  totals.add(batch([[1, 1]], [[1, 2]]));
  totals.putBack(drained);
  const again = totals.drain();
  assert.deepEqual([...again.counts], [[1, 3]]);
  assert.deepEqual([...again.rotations], [[1, 2]]);
});
