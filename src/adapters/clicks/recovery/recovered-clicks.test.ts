import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recoverSums, type WrittenClick } from './recovered-clicks.ts';

const row = (over: Partial<WrittenClick>): WrittenClick => ({
  linkId: 1,
  accountId: 1,
  at: Date.parse('2026-11-24T23:30:00Z'),
  timeZone: 'UTC',
  country: 'DE',
  city: null,
  browser: 'Firefox',
  platform: 'Linux',
  device: 'desktop',
  language: 'de',
  referrerHost: null,
  isBot: false,
  ...over,
});

test('written clicks sum as the window would, in their account zone, without uniques', () => {
  const { window, counts } = recoverSums([
    row({}),
    row({ timeZone: 'Europe/Berlin' }),
    row({ linkId: 2, isBot: true }),
  ]);
  const rows = [...window.orderedIncrements()];
  const of = (linkId: number, dimension: string, day: string, value = '') =>
    rows.find((r) => r.linkId === linkId && r.dimension === dimension && r.day === day && r.value === value)?.count;
  assert.equal(of(1, 'total', '2026-11-24'), 1);
  assert.equal(of(1, 'total', '2026-11-25'), 1);
  assert.equal(of(1, 'hour', '2026-11-24', '23'), 1);
  assert.equal(of(1, 'hour', '2026-11-25', '00'), 1);
  assert.equal(of(1, 'country', '2026-11-25', 'DE'), 1);
  assert.equal(of(2, 'bot', '2026-11-24'), 1);
  assert.equal(of(2, 'total', '2026-11-24'), undefined);
  assert.equal(rows.filter((r) => r.dimension === 'unique').length, 0);
  assert.deepEqual([...window.orderedMarks()], []);
  assert.deepEqual([...counts], [[1, 2]]);
});
