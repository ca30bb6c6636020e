import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STATS_NAMES } from './dimensions.ts';
import { foldRare, isFoldedName } from './rare-values.ts';

test('foldRare: values under the threshold summed into one other entry at the end, the sum unchanged', () => {
  const items = [
    { value: 'intranet.victim-corp.example', count: 1 },
    { value: 'news.example.com', count: 7 },
    { value: null, count: 5 },
    { value: 'a.example', count: 4 },
  ];
  const folded = foldRare(items, 5);
  assert.deepEqual(folded, [
    { value: 'news.example.com', count: 7 },
    { value: null, count: 5 },
    { value: null, count: 5, other: true },
  ]);
  assert.equal(
    folded.reduce((sum, e) => sum + e.count, 0),
    items.reduce((sum, e) => sum + e.count, 0),
  );
});

test('foldRare: no other entry when nothing is rare; everything in it when all is; 1 folds nothing', () => {
  const items = [
    { value: 'Chrome', count: 5 },
    { value: 'Firefox', count: 6 },
  ];
  assert.deepEqual(foldRare(items, 5), items);
  assert.deepEqual(foldRare(items, 7), [{ value: null, count: 11, other: true }]);
  assert.deepEqual(foldRare([{ value: 'Lynx', count: 1 }], 1), [{ value: 'Lynx', count: 1 }]);
  assert.deepEqual(foldRare([], 5), []);
});

test('the breakdowns that describe a visitor fold; days and hours do not', () => {
  assert.deepEqual(
    STATS_NAMES.filter((n) => isFoldedName(n)),
    ['country', 'cities', 'browser', 'platform', 'device', 'language', 'referrer'],
  );
});
