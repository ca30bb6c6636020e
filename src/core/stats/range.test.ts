import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from '../shared/errors.ts';
import { addDays, dateOfDayNumber, dayNumber, daysOf, resolveRange } from './range.ts';

const NOW = Date.parse('2026-03-10T03:00:00Z');

test('day numbers round-trip over leap years, centuries and year 0', () => {
  assert.equal(dayNumber('1970-01-01'), 0);
  assert.equal(dayNumber('1969-12-31'), -1);
  for (const d of ['2024-02-29', '2000-02-29', '1900-02-28', '1900-03-01', '0000-01-01', '0099-12-31', '9999-12-31']) {
    assert.equal(dateOfDayNumber(dayNumber(d)), d);
  }
  assert.equal(addDays('2024-02-28', 1), '2024-02-29');
  assert.equal(addDays('2023-02-28', 1), '2023-03-01');
  assert.equal(addDays('2026-01-01', -1), '2025-12-31');
  assert.deepEqual(daysOf({ from: '2026-02-27', to: '2026-03-02' }), [
    '2026-02-27',
    '2026-02-28',
    '2026-03-01',
    '2026-03-02',
  ]);
});

test('defaults: to is today in the account zone, from 29 days before', () => {
  assert.deepEqual(resolveRange({}, NOW, 'UTC'), { from: '2026-02-09', to: '2026-03-10' });
  // 03:00 UTC is still the 9th in New York.
  assert.deepEqual(resolveRange({}, NOW, 'America/New_York'), { from: '2026-02-08', to: '2026-03-09' });
  assert.deepEqual(resolveRange({ to: '2026-01-31' }, NOW, 'UTC'), { from: '2026-01-02', to: '2026-01-31' });
  assert.deepEqual(resolveRange({ from: '2026-03-01' }, NOW, 'UTC'), { from: '2026-03-01', to: '2026-03-10' });
  assert.deepEqual(resolveRange({ from: '2026-03-05', to: '2026-03-05' }, NOW, 'UTC'), {
    from: '2026-03-05',
    to: '2026-03-05',
  });
});

function fields(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ValidationError);
    return Object.keys(error.fields).sort();
  }
  assert.fail('no ValidationError');
}

test('bad dates, from after to, and ranges over ten years are refused by field', () => {
  assert.deepEqual(
    fields(() => resolveRange({ from: '2026-02-30', to: 'x' }, NOW, 'UTC')),
    ['from', 'to'],
  );
  assert.deepEqual(
    fields(() => resolveRange({ from: '2026-03-02', to: '2026-03-01' }, NOW, 'UTC')),
    ['to'],
  );
  assert.deepEqual(
    fields(() => resolveRange({ from: '2026-03-11' }, NOW, 'UTC')),
    ['to'],
    'from after the default to',
  );
  assert.deepEqual(
    fields(() => resolveRange({ from: '2016-01-01', to: '2026-01-08' }, NOW, 'UTC')),
    ['to'],
  );
  assert.doesNotThrow(() => resolveRange({ from: '2016-01-01', to: addDays('2016-01-01', 3659) }, NOW, 'UTC'));
});
