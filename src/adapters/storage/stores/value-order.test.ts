import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byBytes, orderedPage } from './value-order.ts';

test('byBytes orders as the bytes of UTF-8 do (the engines\u2019 order), surrogate pairs after U+E000 and up', () => {
  const values = ['b', 'a', '', 'B', 'ab', '\u{1F600}', '\uFF21', '\u00E9', 'a\u{10000}', 'a\uFFFD', 'zz'];
  const bytes = [...values].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
  assert.deepEqual([...values].sort(byBytes), bytes);
});

test('orderedPage: by count (ties by value), by value, paged, the unknown value as null, every entry counted', () => {
  const sums = new Map([
    ['b', 5],
    ['', 7],
    ['a', 5],
    ['c', 1],
  ]);
  assert.deepEqual(orderedPage(sums, 'max', { page: 1, perPage: 2 }), {
    items: [
      { value: null, count: 7 },
      { value: 'a', count: 5 },
    ],
    total: 4,
  });
  assert.deepEqual(orderedPage(sums, 'min', { page: 2, perPage: 2 }), {
    items: [
      { value: 'b', count: 5 },
      { value: null, count: 7 },
    ],
    total: 4,
  });
  assert.deepEqual(
    orderedPage(sums, 'value', null).items.map((e) => e.value),
    [null, 'a', 'b', 'c'],
  );
  assert.deepEqual(orderedPage(sums, 'max', { page: 3, perPage: 2 }), { items: [], total: 4 });
});

test('orderedPage picks a page near the top as a sort of every entry would list it', () => {
  let seed = 7;
  const random = (max: number) => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) % max;
  const sums = new Map(
    Array.from({ length: 300 }, (_, i) => [`v${random(1000)}-${i % 7}`, random(20)] as [string, number]),
  );
  for (const order of ['max', 'min', 'value'] as const) {
    const sorted = orderedPage(sums, order, { page: 1, perPage: 100 }).items;
    for (const page of [1, 2, 3])
      assert.deepEqual(
        orderedPage(sums, order, { page, perPage: 5 }).items,
        sorted.slice((page - 1) * 5, page * 5),
        `${order}, page ${page}`,
      );
  }
});
