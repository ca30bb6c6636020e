import { test } from 'node:test';
import assert from 'node:assert/strict';
import { erfc, twoProportionPValue } from './significance.ts';

const close = (actual: number | null, expected: number, within = 1e-6) =>
  assert.ok(actual !== null && Math.abs(actual - expected) < within, `${actual} ≉ ${expected}`);

test('erfc at known points: z = 1.96 is p = 0.05 two-sided', () => {
  close(erfc(1.959963984540054 / Math.SQRT2), 0.05);
  close(erfc(0), 1);
  close(erfc(-1), 1.8427007929497148);
});

test('two-proportion z-test against values worked with the exact erfc', () => {
  close(twoProportionPValue(80, 1000, 50, 1000), 0.006506597483637838);
  close(twoProportionPValue(23, 812, 40, 800), 0.024751598057445395);
  // Symmetric: which one is the base does not change a two-sided p.
  close(twoProportionPValue(50, 1000, 80, 1000), 0.006506597483637838);
  close(twoProportionPValue(10, 100, 10, 100), 1);
});

test('no p-value without clicks or without variation', () => {
  assert.equal(twoProportionPValue(0, 0, 5, 100), null);
  assert.equal(twoProportionPValue(0, 100, 0, 100), null);
  assert.equal(twoProportionPValue(100, 100, 50, 50), null);
});
