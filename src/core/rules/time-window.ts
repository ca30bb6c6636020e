import { WEEKDAYS, type TimeWindow, type Weekday } from './rule.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Whether Intl knows the zone (an IANA name such as Europe/Berlin, or UTC). */
export function isTimeZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

/** A zone's local time at the start of a minute: every window of every link in that zone shares it. */
const minutes = new Map<string, { stamp: number; day: number; minute: number }>();

/**
 * The weekday and minute of the day in a zone during the minute `now` falls in (zone offsets are
 * whole minutes, so local time changes once a minute at most), read once a minute a zone.
 */
function localMinute(now: number, tz: string): { day: number; minute: number } {
  const stamp = Math.floor(now / 60_000);
  const known = minutes.get(tz);
  if (known !== undefined && known.stamp === stamp) return known;
  const t = { stamp, ...localTime(now, tz) };
  // Zones come from stored rules, a bounded set; a map grown past any plausible count starts over.
  if (known === undefined && minutes.size >= 1024) minutes.clear();
  minutes.set(tz, t);
  return t;
}

/** The weekday (0 = Monday) and minute of the day at an instant in a zone, DST included. */
export function localTime(now: number, tz: string): { day: number; minute: number } {
  let day = 0;
  let hour = 0;
  let minute = 0;
  for (const part of formatter(tz).formatToParts(now)) {
    if (part.type === 'weekday') day = WEEKDAYS.indexOf(part.value.toLowerCase() as Weekday);
    else if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') minute = Number(part.value);
  }
  return { day, minute: hour * 60 + minute };
}

function minuteOf(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}

/** A window that can never hold: no day, or from equal to to (stated, not both absent). */
export function isEmptyWindow(w: TimeWindow): boolean {
  if (w.days !== undefined && w.days.length === 0) return true;
  return w.from !== undefined && w.to !== undefined && w.from === w.to;
}

/**
 * The window as a test of an instant. A window crossing midnight (22:00–02:00) belongs to the
 * day it opens on: Friday's late window still holds at 01:00 on Saturday.
 */
export function windowTest(w: TimeWindow): (now: number) => boolean {
  const from = w.from === undefined ? 0 : minuteOf(w.from);
  const to = w.to === undefined ? 1440 : minuteOf(w.to);
  const days = new Set((w.days ?? WEEKDAYS).map((d) => WEEKDAYS.indexOf(d)));
  if (isEmptyWindow(w)) return () => false;
  return (now) => {
    const t = localMinute(now, w.tz);
    return from < to
      ? days.has(t.day) && t.minute >= from && t.minute < to
      : (days.has(t.day) && t.minute >= from) || (days.has((t.day + 6) % 7) && t.minute < to);
  };
}
