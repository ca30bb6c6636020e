import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WrittenMarks } from './written-marks.ts';

const set = (day: string, linkId: number, ...visitors: string[]) => ({ day, linkId, visitors: new Set(visitors) });

test('a mark is known once its window is written, on its own link and day only', () => {
  const marks = new WrittenMarks();
  marks.addAll([set('2026-11-29', 1, 'a', 'b')]);
  marks.addAll([set('2026-11-29', 1, 'b', 'c'), set('2026-11-29', 2, 'a')]);
  assert.equal(marks.count, 4);
  for (const [day, link, visitor, known] of [
    ['2026-11-29', 1, 'a', true],
    ['2026-11-29', 1, 'c', true],
    ['2026-11-29', 2, 'a', true],
    ['2026-11-29', 2, 'b', false],
    ['2026-11-28', 1, 'a', false],
  ] as const) {
    assert.equal(marks.has(day, link, visitor), known, `${day} ${link} ${visitor}`);
  }
});

test('only the three latest days are kept: older marks are deleted by the retention', () => {
  const marks = new WrittenMarks();
  marks.addAll([set('2026-11-26', 1, 'a'), set('2026-11-27', 1, 'a'), set('2026-11-28', 1, 'a', 'b')]);
  marks.addAll([set('2026-11-29', 1, 'a')]);
  assert.deepEqual(
    ['2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29'].map((day) => marks.has(day, 1, 'a')),
    [false, true, true, true],
  );
  assert.equal(marks.count, 4);
});

test('past its bound the memory starts again: what it forgot is only sent again', () => {
  const marks = new WrittenMarks(3);
  marks.addAll([set('2026-11-29', 1, 'a', 'b'), set('2026-11-29', 2, 'c')]);
  marks.addAll([set('2026-11-29', 3, 'd')]);
  assert.deepEqual(
    { count: marks.count, old: marks.has('2026-11-29', 1, 'a'), new: marks.has('2026-11-29', 3, 'd') },
    { count: 1, old: false, new: true },
  );
});

test('a day older than the three kept is not remembered, and takes none of the bound', () => {
  const marks = new WrittenMarks();
  marks.addAll([set('2026-11-27', 1, 'a'), set('2026-11-28', 1, 'a'), set('2026-11-29', 1, 'a')]);
  marks.addAll([set('2026-11-20', 1, 'a', 'b')]);
  assert.deepEqual(
    { count: marks.count, late: marks.has('2026-11-20', 1, 'a'), kept: marks.has('2026-11-27', 1, 'a') },
    { count: 3, late: false, kept: true },
  );
});
