import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byLocal, filteredSpan, FILTERED_DAYS_MAX } from './filtered-clicks.ts';

const now = Date.parse('2026-03-10T12:00:00Z');
const DAY = 86_400_000;

test('filteredSpan: the local days as instants, cut to the retention or FILTERED_DAYS_MAX', () => {
  assert.deepEqual(filteredSpan({ from: '2026-03-01', to: '2026-03-10' }, 'Asia/Kolkata', now, 90), {
    from: Date.parse('2026-02-28T18:30:00Z'),
    to: Date.parse('2026-03-10T18:30:00Z'),
    since: null,
  });
  const cut = filteredSpan({ from: '2020-01-01', to: '2026-03-10' }, 'UTC', now, 30);
  assert.equal(cut.since, now - 30 * DAY);
  assert.equal(cut.from, cut.since);
  assert.equal(
    filteredSpan({ from: '2020-01-01', to: '2026-03-10' }, 'UTC', now, 0).since,
    now - FILTERED_DAYS_MAX * DAY,
  );
  const gone = filteredSpan({ from: '2020-01-01', to: '2020-01-31' }, 'UTC', now, 30);
  assert.equal(gone.from, gone.to);
});

test('byLocal: quarter hours summed by local day or hour, half-hour zones included', () => {
  const q = (iso: string) => Date.parse(iso) / 900_000;
  const quarters = [
    { quarter: q('2026-03-10T18:15:00Z'), count: 1 },
    { quarter: q('2026-03-10T18:30:00Z'), count: 2 },
    { quarter: q('2026-03-10T19:00:00Z'), count: 4 },
  ];
  assert.deepEqual(byLocal('day', quarters, 'Asia/Kolkata'), [
    { value: '2026-03-10', count: 1 },
    { value: '2026-03-11', count: 6 },
  ]);
  assert.deepEqual(byLocal('hour', quarters, 'Asia/Kolkata'), [
    { value: '23', count: 1 },
    { value: '00', count: 6 },
  ]);
});
