import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Click } from '../../../core/clicks/click.ts';
import { RollupWindow, type DrainedRollups } from './rollup-window.ts';
import { rollupsOf, visitorMarksOf } from '../../../../test/support/rollups-of.ts';
import { WrittenMarks } from './written-marks.ts';

const click = (over: Partial<Click> = {}): Click => ({
  linkId: 1,
  accountId: 1,
  at: 0,
  day: '2026-03-10',
  hour: 9,
  visitor: 'v1',
  country: 'US',
  city: 'Boston',
  browser: 'Chrome',
  platform: 'Windows',
  device: 'desktop',
  language: 'en',
  referrerHost: 't.co',
  isBot: false,
  ...over,
});

const table = (rows: DrainedRollups['increments']) =>
  rows.map((r) => `${r.linkId} ${r.dimension} ${r.day} ${r.value} ${r.count}`);
const marks = (rows: DrainedRollups['marks']) => rows.map((m) => `${m.linkId} ${m.day} ${m.visitor}`);

const windowWith = (...batches: Click[][]) => {
  const window = new RollupWindow();
  for (const b of batches) window.add(b);
  return window;
};

test('a human click adds one to total, its hour and each breakdown, and marks its visitor', () => {
  const window = windowWith([click({ hour: 7 })]);
  assert.equal(window.size, 10);
  const drained = window.drain();
  assert.deepEqual(table(drained.increments), [
    '1 browser 2026-03-10 Chrome 1',
    '1 city 2026-03-10 Boston 1',
    '1 country 2026-03-10 US 1',
    '1 device 2026-03-10 desktop 1',
    '1 hour 2026-03-10 07 1',
    '1 language 2026-03-10 en 1',
    '1 platform 2026-03-10 Windows 1',
    '1 referrer 2026-03-10 t.co 1',
    '1 total 2026-03-10  1',
  ]);
  assert.deepEqual(marks(drained.marks), ['1 2026-03-10 v1']);
});

test('unknown values become empty, over-long ones are cut to 255, hours are two digits', () => {
  const long = 'x'.repeat(300);
  const rows = rollupsOf([
    click({
      hour: 23,
      country: null,
      city: null,
      browser: null,
      platform: null,
      device: null,
      language: null,
      referrerHost: long,
    }),
  ]);
  const value = (dimension: string) => rows.find((r) => r.dimension === dimension)!.value;
  for (const d of ['country', 'city', 'browser', 'platform', 'device', 'language']) assert.equal(value(d), '');
  assert.equal(value('referrer'), 'x'.repeat(255));
  assert.equal(value('hour'), '23');
  assert.equal(rollupsOf([click({ hour: 0 })]).find((r) => r.dimension === 'hour')!.value, '00');
});

test('a bot adds to bot only and marks no visitor', () => {
  const window = windowWith([click({ isBot: true, visitor: null }), click({ isBot: true, visitor: 'ignored' })]);
  assert.equal(window.size, 1);
  const drained = window.drain();
  assert.deepEqual(table(drained.increments), ['1 bot 2026-03-10  2']);
  assert.deepEqual(drained.marks, []);
});

test('sums merge per link, day, dimension and value across add calls; size counts rows and marks', () => {
  const window = windowWith(
    [click(), click({ country: 'FR', visitor: 'v2' })],
    [click(), click({ day: '2026-03-11' }), click({ linkId: 2, visitor: null })],
  );
  // link 1 on the 10th: 9 dimensions + FR + v1, v2; on the 11th: 9 + v1; link 2: 9, no mark.
  assert.equal(window.size, 9 + 1 + 2 + 9 + 1 + 9);
  const { increments, marks: m } = window.drain();
  const rows = table(increments);
  assert.ok(rows.includes('1 total 2026-03-10  3'));
  assert.ok(rows.includes('1 country 2026-03-10 US 2'));
  assert.ok(rows.includes('1 country 2026-03-10 FR 1'));
  assert.ok(rows.includes('1 total 2026-03-11  1'));
  assert.ok(rows.includes('2 total 2026-03-10  1'));
  assert.equal(increments.length, 9 + 1 + 9 + 9);
  assert.deepEqual(marks(m), ['1 2026-03-10 v1', '1 2026-03-10 v2', '1 2026-03-11 v1']);
});

test('drain sorts by link, dimension, day and value, groups marks by link and day, and empties the window', () => {
  const window = windowWith([
    click({ linkId: 3, day: '2026-03-12', visitor: 'z' }),
    click({ linkId: 1, day: '2026-03-11', country: 'DE', visitor: 'b' }),
    click({ linkId: 3, day: '2026-03-10', visitor: 'y' }),
    click({ linkId: 1, day: '2026-03-10', visitor: 'a' }),
    click({ linkId: 3, day: '2026-03-12', visitor: 'x' }),
  ]);
  const { increments, marks: m } = window.drain();
  const keys = increments.map((r) => [r.linkId, r.dimension, r.day, r.value] as const);
  const sorted = [...keys].sort(
    (a, b) => a[0] - b[0] || a[1].localeCompare(b[1]) || a[2].localeCompare(b[2]) || a[3].localeCompare(b[3]),
  );
  assert.deepEqual(keys, sorted);
  assert.deepEqual(table(increments.filter((r) => r.dimension === 'country')), [
    '1 country 2026-03-10 US 1',
    '1 country 2026-03-11 DE 1',
    '3 country 2026-03-10 US 1',
    '3 country 2026-03-12 US 2',
  ]);
  const groups = marks(m).map((s) => s.split(' ').slice(0, 2).join(' '));
  assert.deepEqual(
    groups.filter((g, i) => g !== groups[i - 1]).sort(),
    [...new Set(groups)].sort(),
    'each link and day is one run',
  );
  assert.deepEqual(marks(m).sort(), [
    '1 2026-03-10 a',
    '1 2026-03-11 b',
    '3 2026-03-10 y',
    '3 2026-03-12 x',
    '3 2026-03-12 z',
  ]);
  assert.equal(window.size, 0);
  assert.deepEqual(window.drain(), { increments: [], marks: [] });
});

test('putBack restores exactly what drain gave, and later clicks merge into it', () => {
  const batch = [
    click(),
    click({ visitor: 'v2', city: null }),
    click({ linkId: 2, day: '2026-03-11' }),
    click({ isBot: true, visitor: null }),
  ];
  const window = windowWith(batch);
  const size = window.size;
  const first = window.drain();
  window.putBack(first);
  assert.equal(window.size, size);
  const again = window.drain();
  assert.deepEqual(again, first);
  window.putBack(again);
  window.putBack({ increments: [], marks: again.marks }); // marks already held are not counted twice
  assert.equal(window.size, size);
  window.add([click(), click({ visitor: 'v3' })]);
  assert.equal(window.size, size + 1);
  const merged = window.drain();
  assert.ok(table(merged.increments).includes('1 total 2026-03-10  4'));
  assert.ok(table(merged.increments).includes('1 bot 2026-03-10  1'));
  assert.deepEqual(marks(merged.marks), ['1 2026-03-10 v1', '1 2026-03-10 v2', '1 2026-03-10 v3', '2 2026-03-11 v1']);
});

test('rollupsOf and visitorMarksOf equal a single window drain', () => {
  const batch = [
    click(),
    click({ linkId: 2, visitor: 'v9' }),
    click({ isBot: true, visitor: null }),
    click({ hour: 15, visitor: null }),
  ];
  const drained = windowWith(batch).drain();
  assert.deepEqual(rollupsOf(batch), drained.increments);
  assert.deepEqual(visitorMarksOf(batch), drained.marks);
  assert.deepEqual(rollupsOf([]), []);
  assert.deepEqual(visitorMarksOf([]), []);
});

test('a visitor already written for the link and day is not marked again; every sum still counts the click', () => {
  const written = new WrittenMarks();
  written.addAll([{ day: '2026-03-10', linkId: 1, visitors: new Set(['v1']) }]);
  const window = new RollupWindow(written);
  window.add([click(), click({ visitor: 'v2' }), click({ linkId: 2 })]);
  const drained = window.drain();
  assert.deepEqual(marks(drained.marks), ['1 2026-03-10 v2', '2 2026-03-10 v1']);
  assert.ok(table(drained.increments).includes('1 total 2026-03-10  2'));
});
