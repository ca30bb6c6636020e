import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bucketClass, bucketOf, bucketsFor } from './buckets.ts';

const ranges = (max: number) => bucketsFor(max).map((b) => [b.from, b.to]);

test('at most five ranges with round bounds up to the highest count', () => {
  assert.deepEqual(ranges(210), [
    [1, 5],
    [6, 10],
    [11, 50],
    [51, 100],
    [101, 210],
  ]);
  assert.deepEqual(ranges(1_234_567), [
    [1, 20],
    [21, 500],
    [501, 5000],
    [5001, 100_000],
    [100_001, 1_234_567],
  ]);
});

test('small maxima give fewer ranges, never an empty or overlapping one', () => {
  assert.deepEqual(ranges(1), [[1, 1]]);
  assert.deepEqual(ranges(3), [
    [1, 2],
    [3, 3],
  ]);
  assert.deepEqual(ranges(0), []);
  for (let max = 1; max < 3000; max++) {
    const b = bucketsFor(max);
    assert.ok(b.length >= 1 && b.length <= 5);
    assert.equal(b[0]?.from, 1);
    assert.equal(b[b.length - 1]?.to, max);
    b.forEach((x, i) => assert.ok(x.from <= x.to && (i === 0 || x.from === (b[i - 1]?.to ?? 0) + 1)));
  }
});

test('a count finds its range; the busiest range is always class 5', () => {
  const b = bucketsFor(210);
  assert.equal(bucketOf(b, 0), null);
  assert.equal(bucketOf(b, 1)?.index, 1);
  assert.equal(bucketOf(b, 10)?.index, 2);
  assert.equal(bucketOf(b, 11)?.index, 3);
  assert.equal(bucketOf(b, 210)?.index, 5);
  const two = bucketsFor(3);
  assert.equal(bucketClass(two[1]!, two.length), 'map-bucket-5');
  assert.equal(bucketClass(two[0]!, two.length), 'map-bucket-4');
});
