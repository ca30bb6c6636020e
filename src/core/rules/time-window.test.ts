import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isEmptyWindow, localTime, windowTest } from './time-window.ts';

const at = (iso: string) => Date.parse(iso);

test('office hours in Berlin hold in local time, across both DST changes', () => {
  const office = windowTest({
    days: ['mon', 'tue', 'wed', 'thu', 'fri'],
    from: '09:00',
    to: '17:00',
    tz: 'Europe/Berlin',
  });
  // Winter (UTC+1): 09:00 local is 08:00Z.
  assert.equal(office(at('2026-11-27T07:59:00Z')), false);
  assert.equal(office(at('2026-11-27T08:00:00Z')), true);
  assert.equal(office(at('2026-11-27T15:59:00Z')), true);
  assert.equal(office(at('2026-11-27T16:00:00Z')), false, 'to is exclusive');
  // Summer (UTC+2): 09:00 local is 07:00Z.
  assert.equal(windowTest({ from: '09:00', to: '17:00', tz: 'Europe/Berlin' })(at('2026-07-01T07:00:00Z')), true);
  assert.equal(windowTest({ from: '09:00', to: '17:00', tz: 'Europe/Berlin' })(at('2026-07-01T06:59:00Z')), false);
  // The Monday after the spring change (29 March 2026): 09:00 is 07:00Z already.
  assert.equal(office(at('2026-03-30T07:00:00Z')), true);
  assert.equal(office(at('2026-03-30T06:59:00Z')), false);
  // Saturday is not a working day.
  assert.equal(office(at('2026-11-28T10:00:00Z')), false);
});

test('the skipped and the repeated hour of a DST change are read as the wall clock shows them', () => {
  assert.deepEqual(
    localTime(at('2026-03-29T01:00:00Z'), 'Europe/Berlin'),
    { day: 6, minute: 3 * 60 },
    '02:00 does not exist: 03:00',
  );
  assert.deepEqual(localTime(at('2026-10-25T00:30:00Z'), 'Europe/Berlin'), { day: 6, minute: 2 * 60 + 30 });
  assert.deepEqual(
    localTime(at('2026-10-25T01:30:00Z'), 'Europe/Berlin'),
    { day: 6, minute: 2 * 60 + 30 },
    'the hour is lived twice',
  );
  const night = windowTest({ from: '02:00', to: '03:00', tz: 'Europe/Berlin' });
  assert.equal(night(at('2026-10-25T00:30:00Z')), true);
  assert.equal(night(at('2026-10-25T01:30:00Z')), true);
});

test('a window crossing midnight belongs to the day it opens on', () => {
  const late = windowTest({ days: ['fri'], from: '22:00', to: '02:00', tz: 'UTC' });
  assert.equal(late(at('2026-11-27T22:00:00Z')), true, 'Friday 22:00');
  assert.equal(late(at('2026-11-28T01:59:00Z')), true, 'Saturday 01:59 is still Friday night');
  assert.equal(late(at('2026-11-28T02:00:00Z')), false);
  assert.equal(late(at('2026-11-27T01:00:00Z')), false, 'Friday 01:00 is Thursday night');
  assert.equal(late(at('2026-11-28T22:30:00Z')), false, 'Saturday night');
});

test('zones east and west of UTC, and half-hour ones', () => {
  assert.deepEqual(localTime(at('2026-11-27T23:30:00Z'), 'Asia/Kolkata'), { day: 5, minute: 5 * 60 }, 'Saturday 05:00');
  assert.deepEqual(
    localTime(at('2026-11-27T03:00:00Z'), 'America/Los_Angeles'),
    { day: 3, minute: 19 * 60 },
    'Thursday 19:00',
  );
});

test('empty windows never hold, and are named empty', () => {
  assert.equal(isEmptyWindow({ from: '10:00', to: '10:00', tz: 'UTC' }), true);
  assert.equal(isEmptyWindow({ days: [], tz: 'UTC' }), true);
  assert.equal(isEmptyWindow({ tz: 'UTC' }), false, 'no bounds: all day, every day');
  assert.equal(windowTest({ from: '10:00', to: '10:00', tz: 'UTC' })(at('2026-11-27T10:00:00Z')), false);
  assert.equal(windowTest({ tz: 'UTC' })(at('2026-11-27T10:00:00Z')), true);
});
