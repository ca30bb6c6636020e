import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalSlots, localSlot } from './local-time.ts';

test('local day and hour around midnight and DST changes', () => {
  assert.deepEqual(localSlot(Date.parse('2026-03-10T03:59:59.999Z'), 'America/New_York'), {
    day: '2026-03-09',
    hour: 23,
  });
  assert.deepEqual(localSlot(Date.parse('2026-03-10T04:00:00Z'), 'America/New_York'), { day: '2026-03-10', hour: 0 });
  // Spring forward: 02:00 EST becomes 03:00 EDT, hour 2 never happens.
  assert.deepEqual(localSlot(Date.parse('2026-03-08T06:59:59Z'), 'America/New_York'), { day: '2026-03-08', hour: 1 });
  assert.deepEqual(localSlot(Date.parse('2026-03-08T07:00:00Z'), 'America/New_York'), { day: '2026-03-08', hour: 3 });
  // Fall back: hour 1 happens twice.
  assert.deepEqual(localSlot(Date.parse('2026-11-01T05:30:00Z'), 'America/New_York'), { day: '2026-11-01', hour: 1 });
  assert.deepEqual(localSlot(Date.parse('2026-11-01T06:30:00Z'), 'America/New_York'), { day: '2026-11-01', hour: 1 });
  assert.deepEqual(localSlot(Date.parse('2026-06-30T18:15:00Z'), 'Asia/Kathmandu'), { day: '2026-07-01', hour: 0 });
});

test('the quarter-hour cache agrees with the direct computation, through DST changes and odd offsets', () => {
  const zones = [
    'UTC',
    'America/New_York',
    'Europe/Paris',
    'Asia/Kathmandu',
    'Australia/Lord_Howe',
    'Pacific/Chatham',
    'America/St_Johns',
    'Pacific/Apia',
  ];
  const slots = new LocalSlots();
  const starts = [
    '2026-03-07T00:00:00Z',
    '2026-03-28T00:00:00Z',
    '2026-04-04T00:00:00Z',
    '2026-10-03T00:00:00Z',
    '2026-10-31T00:00:00Z',
    '2011-12-29T00:00:00Z',
  ];
  for (const start of starts) {
    for (let at = Date.parse(start); at < Date.parse(start) + 3 * 86_400_000; at += 7 * 60_000 + 13_001) {
      for (const zone of zones)
        assert.deepEqual(slots.of(at, zone), localSlot(at, zone), `${new Date(at).toISOString()} ${zone}`);
    }
  }
});
