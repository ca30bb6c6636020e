import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addDays, daysOf, type DayRange } from './range.ts';
import { foldableBefore, nextMonth, previousMonth, quarterOf, rangeParts, type RangeParts } from './rollup-months.ts';

test('months step over the year', () => {
  assert.equal(nextMonth('2026-12'), '2027-01');
  assert.equal(nextMonth('2026-09'), '2026-10');
  assert.equal(nextMonth('2026-01'), '2026-02');
  assert.equal(previousMonth('2026-01'), '2025-12');
  assert.equal(previousMonth('2026-10'), '2026-09');
  assert.equal(previousMonth('2026-12'), '2026-11');
});

test('a quarter is keyed by its first month', () => {
  assert.deepEqual(
    ['2026-01', '2026-02', '2026-03', '2026-04', '2026-06', '2026-07', '2026-09', '2026-10', '2026-12'].map(quarterOf),
    ['2026-01', '2026-01', '2026-01', '2026-04', '2026-04', '2026-07', '2026-07', '2026-10', '2026-10'],
  );
});

test('a year: days at either end, months up to the first quarter and after the last, whole quarters between', () => {
  assert.deepEqual(rangeParts({ from: '2025-11-26', to: '2026-11-25' }, '2026-11'), {
    days: [
      { from: '2025-11-26', to: '2025-11-30' },
      { from: '2026-11-01', to: '2026-11-25' },
    ],
    months: [
      { from: '2025-12', to: '2025-12' },
      { from: '2026-10', to: '2026-10' },
    ],
    quarters: { from: '2026-01', to: '2026-07' },
  });
});

test('only the months folded are read as months or quarters; the rest of the range stays days', () => {
  assert.deepEqual(rangeParts({ from: '2026-01-01', to: '2026-12-31' }, '2026-06'), {
    days: [{ from: '2026-06-01', to: '2026-12-31' }],
    months: [{ from: '2026-04', to: '2026-05' }],
    quarters: { from: '2026-01', to: '2026-01' },
  });
  assert.deepEqual(rangeParts({ from: '2026-01-01', to: '2026-03-31' }, '0000-01'), {
    days: [{ from: '2026-01-01', to: '2026-03-31' }],
    months: [],
    quarters: null,
  });
});

test('a range of whole months is months alone, of whole quarters quarters alone; one within a month is days alone', () => {
  assert.deepEqual(rangeParts({ from: '2024-02-01', to: '2024-02-29' }, '2026-01'), {
    days: [],
    months: [{ from: '2024-02', to: '2024-02' }],
    quarters: null,
  });
  assert.deepEqual(rangeParts({ from: '2024-02-01', to: '2024-05-31' }, '2026-01'), {
    days: [],
    months: [{ from: '2024-02', to: '2024-05' }],
    quarters: null,
  });
  assert.deepEqual(rangeParts({ from: '2024-10-01', to: '2025-06-30' }, '2026-01'), {
    days: [],
    months: [],
    quarters: { from: '2024-10', to: '2025-04' },
  });
  assert.deepEqual(rangeParts({ from: '2026-03-02', to: '2026-03-31' }, '2026-11'), {
    days: [{ from: '2026-03-02', to: '2026-03-31' }],
    months: [],
    quarters: null,
  });
  assert.deepEqual(rangeParts({ from: '2026-02-15', to: '2026-03-14' }, '2026-11'), {
    days: [{ from: '2026-02-15', to: '2026-03-14' }],
    months: [],
    quarters: null,
  });
});

/** Every day the parts cover, in order, each as often as it is covered. */
function coveredDays(parts: RangeParts): string[] {
  const monthDays = (from: string, to: string) =>
    daysOf({ from: `${from}-01`, to: addDays(`${nextMonth(to)}-01`, -1) });
  const spans = [
    ...parts.days.map((d) => daysOf(d)),
    ...parts.months.map((m) => monthDays(m.from, m.to)),
    ...(parts.quarters ? [monthDays(parts.quarters.from, nextMonth(nextMonth(parts.quarters.to)))] : []),
  ];
  return spans.flat().sort();
}

test('random ranges: the parts cover every day of the range once, and only folded months as months or quarters', () => {
  // A fixed seed: the same ranges every run (crossing months, quarters and years, and the fold's edge).
  let seed = 0x2f6e2b1;
  const random = (n: number): number => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed % n;
  };
  for (let i = 0; i < 2_000; i++) {
    const from = addDays('2023-01-01', random(1_500));
    const range: DayRange = { from, to: addDays(from, random(i % 4 === 0 ? 40 : 800)) };
    const foldedBefore = addDays('2023-01-01', random(1_800)).slice(0, 7);
    const parts = rangeParts(range, foldedBefore);
    assert.deepEqual(coveredDays(parts), daysOf(range), `${JSON.stringify(range)} folded before ${foldedBefore}`);
    for (const m of parts.months) assert.ok(m.from <= m.to && m.to < foldedBefore, JSON.stringify(parts));
    if (parts.quarters) {
      const { from, to } = parts.quarters;
      assert.ok(quarterOf(from) === from && quarterOf(to) === to && from <= to, JSON.stringify(parts));
      assert.ok(nextMonth(nextMonth(to)) < foldedBefore, JSON.stringify(parts));
    }
  }
});

test('a month is folded once three days of it are past everywhere', () => {
  assert.equal(foldableBefore(Date.parse('2026-12-03T23:59:59Z')), '2026-11');
  assert.equal(foldableBefore(Date.parse('2026-12-04T00:00:00Z')), '2026-12');
});
