import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DurationHistogram } from './duration-histogram.ts';

test('an observation goes to the first bucket whose bound it does not pass (le), or past them all', () => {
  const h = new DurationHistogram([0.001, 0.01]);
  for (const ms of [0, 1, 1.0001, 10, 11, 5000]) h.observe(ms);
  assert.deepEqual([...h.counts], [2, 2, 2]);
  assert.equal(h.count, 6);
  assert.ok(Math.abs(h.sumSeconds - 5.0230001) < 1e-9);
});
