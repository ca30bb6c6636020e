import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  epochMsToZonedDate,
  epochMsToZonedParts,
  isValidDate,
  isValidTime,
  isValidTimeZone,
  zonedDateTimeToEpochMs,
  zonedDayStartEpochMs,
} from './ends-at.ts';

const utc = (iso: string): number => Date.parse(iso);

test('isValidTimeZone accepts IANA names and rejects everything else', () => {
  for (const tz of ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'Etc/GMT+5']) {
    assert.equal(isValidTimeZone(tz), true, tz);
  }
  for (const tz of ['Mars/Base', '', ' UTC', 'Europe/Pariss', '+01:00', '-05:00', 'Z', 'Not a zone']) {
    assert.equal(isValidTimeZone(tz), false, JSON.stringify(tz));
  }
});

test('isValidDate requires YYYY-MM-DD and a real calendar date', () => {
  for (const d of ['2026-01-01', '2026-12-31', '2028-02-29', '2000-02-29', '2026-04-30', '0001-01-01', '9999-12-31']) {
    assert.equal(isValidDate(d), true, d);
  }
  for (const d of [
    '2026-02-29', // not a leap year
    '1900-02-29', // century, not divisible by 400
    '2026-13-40',
    '2026-00-10',
    '2026-01-00',
    '2026-04-31',
    '2026-1-01',
    '2026-01-1',
    '26-01-01',
    '2026/01/01',
    '2026-01-01T00:00',
    ' 2026-01-01',
    '2026-01-01\n',
    '２０２６-01-01', // full-width digits
    '',
  ]) {
    assert.equal(isValidDate(d), false, JSON.stringify(d));
  }
});

test('isValidTime requires HH:MM between 00:00 and 23:59', () => {
  for (const t of ['00:00', '09:05', '12:30', '23:59']) assert.equal(isValidTime(t), true, t);
  for (const t of ['24:00', '25:00', '23:60', '9:00', '09:5', '09:00:00', '0900', ' 09:00', '09:00\n', '', 'ab:cd']) {
    assert.equal(isValidTime(t), false, JSON.stringify(t));
  }
});

test('UTC wall time equals the instant', () => {
  assert.equal(zonedDateTimeToEpochMs('2026-06-01', '12:00', 'UTC'), utc('2026-06-01T12:00:00Z'));
  assert.equal(zonedDateTimeToEpochMs('1970-01-01', '00:00', 'UTC'), 0);
  assert.deepEqual(epochMsToZonedParts(utc('2026-06-01T12:34:56.789Z'), 'UTC'), { date: '2026-06-01', time: '12:34' });
});

test('Europe/Paris summer (+02:00) and winter (+01:00)', () => {
  assert.equal(zonedDateTimeToEpochMs('2026-07-14', '12:00', 'Europe/Paris'), utc('2026-07-14T10:00:00Z'));
  assert.equal(zonedDateTimeToEpochMs('2026-01-15', '12:00', 'Europe/Paris'), utc('2026-01-15T11:00:00Z'));
  assert.deepEqual(epochMsToZonedParts(utc('2026-07-14T10:00:00Z'), 'Europe/Paris'), {
    date: '2026-07-14',
    time: '12:00',
  });
  assert.deepEqual(epochMsToZonedParts(utc('2026-01-15T23:30:00Z'), 'Europe/Paris'), {
    date: '2026-01-16',
    time: '00:30',
  });
});

test('Europe/Paris transitions (2026-03-29 gap, 2026-10-25 overlap)', () => {
  // 02:00-02:59 does not exist; it shifts forward by one hour.
  assert.equal(zonedDateTimeToEpochMs('2026-03-29', '01:59', 'Europe/Paris'), utc('2026-03-29T00:59:00Z'));
  assert.equal(zonedDateTimeToEpochMs('2026-03-29', '02:15', 'Europe/Paris'), utc('2026-03-29T01:15:00Z'));
  assert.equal(zonedDateTimeToEpochMs('2026-03-29', '03:00', 'Europe/Paris'), utc('2026-03-29T01:00:00Z'));
  // 02:00-02:59 happens twice; the first (CEST) wins.
  assert.equal(zonedDateTimeToEpochMs('2026-10-25', '02:30', 'Europe/Paris'), utc('2026-10-25T00:30:00Z'));
  assert.equal(zonedDateTimeToEpochMs('2026-10-25', '03:00', 'Europe/Paris'), utc('2026-10-25T02:00:00Z'));
});

test('America/New_York DST gap: 2026-03-08 02:30 maps forward to 03:30 EDT', () => {
  const ms = zonedDateTimeToEpochMs('2026-03-08', '02:30', 'America/New_York');
  assert.equal(ms, utc('2026-03-08T07:30:00Z'));
  assert.deepEqual(epochMsToZonedParts(ms, 'America/New_York'), { date: '2026-03-08', time: '03:30' });
  // Gap start maps onto the transition instant; both neighbours are exact.
  assert.equal(zonedDateTimeToEpochMs('2026-03-08', '02:00', 'America/New_York'), utc('2026-03-08T07:00:00Z'));
  assert.equal(zonedDateTimeToEpochMs('2026-03-08', '01:59', 'America/New_York'), utc('2026-03-08T06:59:00Z'));
  assert.equal(zonedDateTimeToEpochMs('2026-03-08', '03:00', 'America/New_York'), utc('2026-03-08T07:00:00Z'));
  assert.equal(zonedDateTimeToEpochMs('2026-03-08', '02:59', 'America/New_York'), utc('2026-03-08T07:59:00Z'));
});

test('America/New_York DST overlap: 2026-11-01 01:30 takes the earlier (EDT) instant', () => {
  const ms = zonedDateTimeToEpochMs('2026-11-01', '01:30', 'America/New_York');
  assert.equal(ms, utc('2026-11-01T05:30:00Z'));
  // Both instants display as 01:30; the chosen one is an hour before the other.
  assert.deepEqual(epochMsToZonedParts(ms, 'America/New_York'), { date: '2026-11-01', time: '01:30' });
  assert.deepEqual(epochMsToZonedParts(ms + 3_600_000, 'America/New_York'), { date: '2026-11-01', time: '01:30' });
  assert.equal(zonedDateTimeToEpochMs('2026-11-01', '00:59', 'America/New_York'), utc('2026-11-01T04:59:00Z'));
  assert.equal(zonedDateTimeToEpochMs('2026-11-01', '01:00', 'America/New_York'), utc('2026-11-01T05:00:00Z'));
  assert.equal(zonedDateTimeToEpochMs('2026-11-01', '01:59', 'America/New_York'), utc('2026-11-01T05:59:00Z'));
  assert.equal(zonedDateTimeToEpochMs('2026-11-01', '02:00', 'America/New_York'), utc('2026-11-01T07:00:00Z'));
});

test('Asia/Kolkata (+05:30, no DST)', () => {
  assert.equal(zonedDateTimeToEpochMs('2026-01-01', '00:00', 'Asia/Kolkata'), utc('2025-12-31T18:30:00Z'));
  assert.equal(zonedDateTimeToEpochMs('2026-07-01', '05:29', 'Asia/Kolkata'), utc('2026-06-30T23:59:00Z'));
  assert.deepEqual(epochMsToZonedParts(utc('2025-12-31T18:29:00Z'), 'Asia/Kolkata'), {
    date: '2025-12-31',
    time: '23:59',
  });
  assert.equal(epochMsToZonedDate(utc('2025-12-31T18:30:00Z'), 'Asia/Kolkata'), '2026-01-01');
});

test('Pacific/Chatham (+13:45 summer, +12:45 winter) and its transitions', () => {
  assert.equal(zonedDateTimeToEpochMs('2026-01-15', '12:00', 'Pacific/Chatham'), utc('2026-01-14T22:15:00Z'));
  assert.equal(zonedDateTimeToEpochMs('2026-07-15', '12:00', 'Pacific/Chatham'), utc('2026-07-14T23:15:00Z'));
  // Spring forward 2026-09-27 02:45 -> 03:45: 03:00 does not exist.
  const gap = zonedDateTimeToEpochMs('2026-09-27', '03:00', 'Pacific/Chatham');
  assert.equal(gap, utc('2026-09-26T14:15:00Z'));
  assert.deepEqual(epochMsToZonedParts(gap, 'Pacific/Chatham'), { date: '2026-09-27', time: '04:00' });
  // Fall back 2026-04-05 03:45 -> 02:45: 03:00 happens twice.
  assert.equal(zonedDateTimeToEpochMs('2026-04-05', '03:00', 'Pacific/Chatham'), utc('2026-04-04T13:15:00Z'));
});

test('round trip: instant -> parts -> instant is the instant floored to the minute', () => {
  const check = (ms: number, tz: string): void => {
    const { date, time } = epochMsToZonedParts(ms, tz);
    assert.equal(isValidDate(date), true);
    assert.equal(isValidTime(time), true);
    const back = zonedDateTimeToEpochMs(date, time, tz);
    const floored = Math.floor(ms / 60_000) * 60_000;
    const where = `${tz} ${new Date(ms).toISOString()}`;
    if (back !== floored) {
      // Only the second pass through an overlap may differ: it resolves to
      // the first pass, exactly one DST shift earlier.
      assert.ok(back < floored && floored - back <= 3_600_000, where);
    }
    assert.deepEqual(epochMsToZonedParts(back, tz), { date, time }, where);
    assert.equal(epochMsToZonedDate(ms, tz), date, where);
  };
  const zones = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'Australia/Lord_Howe'];
  for (const tz of zones) {
    // Coarse sweep of 2026 with an odd step so minutes and seconds vary.
    for (
      let ms = utc('2026-01-01T00:00:00Z');
      ms < utc('2027-01-01T00:00:00Z');
      ms += 7 * 3_600_000 + 13 * 60_000 + 1234
    ) {
      check(ms, tz);
    }
  }
  // Dense sweeps across each 2026 transition (3 h either side, every 7 min).
  const transitions: Array<[string, string]> = [
    ['Europe/Paris', '2026-03-29T01:00:00Z'],
    ['Europe/Paris', '2026-10-25T01:00:00Z'],
    ['America/New_York', '2026-03-08T07:00:00Z'],
    ['America/New_York', '2026-11-01T06:00:00Z'],
    ['Pacific/Chatham', '2026-04-04T14:00:00Z'],
    ['Pacific/Chatham', '2026-09-26T14:00:00Z'],
  ];
  for (const [tz, at] of transitions) {
    for (let ms = utc(at) - 3 * 3_600_000; ms <= utc(at) + 3 * 3_600_000; ms += 7 * 60_000 + 321) check(ms, tz);
  }
});

test('round trip: parts -> instant -> parts for every valid wall time of a day', () => {
  for (const tz of ['Europe/Paris', 'Asia/Kolkata', 'Pacific/Chatham']) {
    for (let h = 0; h < 24; h++) {
      for (let m = 0; m < 60; m += 7) {
        const time = `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
        const ms = zonedDateTimeToEpochMs('2026-05-20', time, tz);
        assert.deepEqual(epochMsToZonedParts(ms, tz), { date: '2026-05-20', time });
      }
    }
  }
});

test('day starts are local midnight and bracket a whole local day', () => {
  assert.equal(zonedDayStartEpochMs('2026-06-01', 'UTC'), utc('2026-06-01T00:00:00Z'));
  assert.equal(zonedDayStartEpochMs('2026-07-14', 'Europe/Paris'), utc('2026-07-13T22:00:00Z'));
  assert.equal(zonedDayStartEpochMs('2026-01-15', 'Europe/Paris'), utc('2026-01-14T23:00:00Z'));
  assert.equal(zonedDayStartEpochMs('2026-01-01', 'Asia/Kolkata'), utc('2025-12-31T18:30:00Z'));
  assert.equal(zonedDayStartEpochMs('2026-01-01', 'Pacific/Chatham'), utc('2025-12-31T10:15:00Z'));
  // Around midnight: one ms before the start is the previous local day.
  for (const tz of ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham']) {
    const start = zonedDayStartEpochMs('2026-03-08', tz);
    assert.equal(epochMsToZonedDate(start, tz), '2026-03-08', tz);
    assert.equal(epochMsToZonedDate(start - 1, tz), '2026-03-07', tz);
    assert.deepEqual(epochMsToZonedParts(start, tz), { date: '2026-03-08', time: '00:00' }, tz);
  }
});

test('day lengths follow DST: 23 h on spring-forward days, 25 h on fall-back days', () => {
  const len = (d1: string, d2: string, tz: string): number =>
    (zonedDayStartEpochMs(d2, tz) - zonedDayStartEpochMs(d1, tz)) / 3_600_000;
  assert.equal(len('2026-03-08', '2026-03-09', 'America/New_York'), 23);
  assert.equal(len('2026-11-01', '2026-11-02', 'America/New_York'), 25);
  assert.equal(len('2026-03-29', '2026-03-30', 'Europe/Paris'), 23);
  assert.equal(len('2026-10-25', '2026-10-26', 'Europe/Paris'), 25);
  assert.equal(len('2026-09-27', '2026-09-28', 'Pacific/Chatham'), 23);
  assert.equal(len('2026-06-01', '2026-06-02', 'Asia/Kolkata'), 24);
  // Year boundary and leap day.
  assert.equal(len('2026-12-31', '2027-01-01', 'Europe/Paris'), 24);
  assert.equal(len('2028-02-29', '2028-03-01', 'UTC'), 24);
});

test('day start when midnight itself is skipped (America/Havana DST starts at 00:00)', () => {
  // 2026-03-08 00:00 CST jumps to 01:00 CDT, so the day begins at 01:00.
  const start = zonedDayStartEpochMs('2026-03-08', 'America/Havana');
  assert.equal(start, utc('2026-03-08T05:00:00Z'));
  assert.deepEqual(epochMsToZonedParts(start, 'America/Havana'), { date: '2026-03-08', time: '01:00' });
  assert.equal(epochMsToZonedDate(start - 1, 'America/Havana'), '2026-03-07');
});

test('day start when a gap straddles midnight is the transition, not midnight shifted', () => {
  // Toronto 1919-03-30 23:30 EST jumped to 1919-03-31 00:30 EDT. The day
  // starts at 00:30, whereas 00:00 shifted forward by the gap is 01:00.
  const start = zonedDayStartEpochMs('1919-03-31', 'America/Toronto');
  assert.equal(start, utc('1919-03-31T04:30:00Z'));
  assert.deepEqual(epochMsToZonedParts(start, 'America/Toronto'), { date: '1919-03-31', time: '00:30' });
  assert.equal(epochMsToZonedDate(start - 1, 'America/Toronto'), '1919-03-30');
  assert.equal(zonedDateTimeToEpochMs('1919-03-31', '00:00', 'America/Toronto'), utc('1919-03-31T05:00:00Z'));
});

test('a day skipped entirely (Pacific/Apia 2011-12-30) is an empty range', () => {
  const skipped = zonedDayStartEpochMs('2011-12-30', 'Pacific/Apia');
  const next = zonedDayStartEpochMs('2011-12-31', 'Pacific/Apia');
  assert.equal(skipped, next);
  assert.equal(epochMsToZonedDate(next - 1, 'Pacific/Apia'), '2011-12-29');
});

test('years before 100 are not shifted into the 1900s', () => {
  assert.equal(zonedDateTimeToEpochMs('0050-06-01', '00:00', 'UTC'), Date.parse('0050-06-01T00:00:00Z'));
  assert.deepEqual(epochMsToZonedParts(Date.parse('0050-06-01T00:00:00Z'), 'UTC'), {
    date: '0050-06-01',
    time: '00:00',
  });
});

test('sub-second and negative instants format correctly', () => {
  assert.deepEqual(epochMsToZonedParts(-1, 'UTC'), { date: '1969-12-31', time: '23:59' });
  assert.deepEqual(epochMsToZonedParts(utc('2026-03-08T06:59:59.999Z'), 'America/New_York'), {
    date: '2026-03-08',
    time: '01:59',
  });
});

test('invalid inputs throw RangeError', () => {
  assert.throws(() => zonedDateTimeToEpochMs('2026-02-29', '12:00', 'UTC'), RangeError);
  assert.throws(() => zonedDateTimeToEpochMs('2026-02-28', '24:00', 'UTC'), RangeError);
  assert.throws(() => zonedDateTimeToEpochMs('2026-02-28', '12:00', 'Mars/Base'), RangeError);
  assert.throws(() => zonedDateTimeToEpochMs('2026-02-28', '12:00', '+01:00'), RangeError);
  assert.throws(() => zonedDayStartEpochMs('2026-13-01', 'UTC'), RangeError);
  assert.throws(() => zonedDayStartEpochMs('2026-01-01', 'Mars/Base'), RangeError);
  assert.throws(() => epochMsToZonedParts(Number.NaN, 'UTC'), RangeError);
  assert.throws(() => epochMsToZonedParts(Number.POSITIVE_INFINITY, 'UTC'), RangeError);
  assert.throws(() => epochMsToZonedParts(0, 'Mars/Base'), RangeError);
  assert.throws(() => epochMsToZonedDate(0, ''), RangeError);
});
