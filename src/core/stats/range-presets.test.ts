import { test } from 'node:test';
import assert from 'node:assert/strict';
import { presetOf, presetRange, previousRange } from './range-presets.ts';

// 23:30 UTC on 31 March: already 1 April in Berlin (UTC+2), still 31 March in New York.
const NOW = Date.parse('2026-03-31T23:30:00Z');
const CREATED = Date.parse('2025-12-15T10:00:00Z');

test('presets are days of the owner’s zone', () => {
  assert.deepEqual(presetRange('today', NOW, 'Europe/Berlin', CREATED), { from: '2026-04-01', to: '2026-04-01' });
  assert.deepEqual(presetRange('today', NOW, 'America/New_York', CREATED), { from: '2026-03-31', to: '2026-03-31' });
  assert.deepEqual(presetRange('yesterday', NOW, 'Europe/Berlin', CREATED), { from: '2026-03-31', to: '2026-03-31' });
  assert.deepEqual(presetRange('last7', NOW, 'Europe/Berlin', CREATED), { from: '2026-03-26', to: '2026-04-01' });
  assert.deepEqual(presetRange('last30', NOW, 'Europe/Berlin', CREATED), { from: '2026-03-03', to: '2026-04-01' });
  assert.deepEqual(presetRange('thisMonth', NOW, 'Europe/Berlin', CREATED), { from: '2026-04-01', to: '2026-04-01' });
  assert.deepEqual(presetRange('lastMonth', NOW, 'Europe/Berlin', CREATED), { from: '2026-03-01', to: '2026-03-31' });
  assert.deepEqual(presetRange('lastMonth', NOW, 'America/New_York', CREATED), {
    from: '2026-02-01',
    to: '2026-02-28',
  });
  assert.deepEqual(presetRange('all', NOW, 'Europe/Berlin', CREATED), { from: '2025-12-15', to: '2026-04-01' });
});

test('last month across a year; all time at most ten years', () => {
  const jan = Date.parse('2026-01-05T12:00:00Z');
  assert.deepEqual(presetRange('lastMonth', jan, 'UTC', CREATED), { from: '2025-12-01', to: '2025-12-31' });
  const old = Date.parse('2001-01-01T00:00:00Z');
  assert.deepEqual(presetRange('all', jan, 'UTC', old), { from: '2015-12-30', to: '2026-01-05' });
  // A creation time after now (a clock set back) gives today, never an empty range.
  assert.deepEqual(presetRange('all', jan, 'UTC', Date.parse('2027-01-01T00:00:00Z')), {
    from: '2026-01-05',
    to: '2026-01-05',
  });
});

test('the previous period has the same length and ends the day before', () => {
  assert.deepEqual(previousRange({ from: '2026-03-01', to: '2026-03-31' }), { from: '2026-01-29', to: '2026-02-28' });
  assert.deepEqual(previousRange({ from: '2026-03-10', to: '2026-03-10' }), { from: '2026-03-09', to: '2026-03-09' });
});

test('a range is named by the first preset it equals', () => {
  assert.equal(presetOf({ from: '2026-03-26', to: '2026-04-01' }, NOW, 'Europe/Berlin', CREATED), 'last7');
  assert.equal(presetOf({ from: '2026-03-25', to: '2026-04-01' }, NOW, 'Europe/Berlin', CREATED), null);
});
