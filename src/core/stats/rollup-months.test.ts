import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foldableBefore, nextMonth, previousMonth, rangeParts } from './rollup-months.ts';

test('months step over the year', () => {
  assert.equal(nextMonth('2026-12'), '2027-01');
  assert.equal(nextMonth('2026-09'), '2026-10');
  assert.equal(nextMonth('2026-01'), '2026-02');
  assert.equal(previousMonth('2026-01'), '2025-12');
  assert.equal(previousMonth('2026-10'), '2026-09');
  assert.equal(previousMonth('2026-12'), '2026-11');
});

test('a year: the partial months at either end are days, the whole ones between are months', () => {
  assert.deepEqual(rangeParts({ from: '2025-11-26', to: '2026-11-25' }, '2026-11'), {
    days: [
      { from: '2025-11-26', to: '2025-11-30' },
      { from: '2026-11-01', to: '2026-11-25' },
    ],
    months: { from: '2025-12', to: '2026-10' },
  });
});

test('only the months folded are read as months; the rest of the range stays days', () => {
  assert.deepEqual(rangeParts({ from: '2026-01-01', to: '2026-12-31' }, '2026-06'), {
    days: [{ from: '2026-06-01', to: '2026-12-31' }],
    months: { from: '2026-01', to: '2026-05' },
  });
  assert.deepEqual(rangeParts({ from: '2026-01-01', to: '2026-03-31' }, '0000-01'), { days: [{ from: '2026-01-01', to: '2026-03-31' }], months: null });
});

test('a range of whole months is months alone; one within a month is days alone', () => {
  assert.deepEqual(rangeParts({ from: '2024-02-01', to: '2024-02-29' }, '2026-01'), { days: [], months: { from: '2024-02', to: '2024-02' } });
  assert.deepEqual(rangeParts({ from: '2026-03-02', to: '2026-03-31' }, '2026-11'), { days: [{ from: '2026-03-02', to: '2026-03-31' }], months: null });
  assert.deepEqual(rangeParts({ from: '2026-02-15', to: '2026-03-14' }, '2026-11'), { days: [{ from: '2026-02-15', to: '2026-03-14' }], months: null });
});

test('a month is folded once three days of it are past everywhere', () => {
  assert.equal(foldableBefore(Date.parse('2026-12-03T23:59:59Z')), '2026-11');
  assert.equal(foldableBefore(Date.parse('2026-12-04T00:00:00Z')), '2026-12');
});
