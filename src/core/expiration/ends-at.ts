// Wall-clock <-> instant conversion for IANA time zones using only Intl.
//
// Conventions (match Temporal's default `disambiguation: 'compatible'`):
// - A wall time inside a DST gap (it never happens on the clock) is moved
//   forward by the length of the gap: 02:30 on a spring-forward night in
//   New York becomes 03:30 EDT. It is read with the offset in force before
//   the gap, so the result is always later than any valid time before it.
// - A wall time inside a DST overlap (it happens twice) resolves to the
//   earlier instant: 01:30 on a fall-back night in New York is 01:30 EDT.
//   For an expiry this errs on the side of ending the link sooner rather than
//   an hour past what the user most likely meant.
// - Dates use the proleptic Gregorian calendar, years 0000-9999.
// - Functions taking a date, time or zone throw RangeError on invalid input;
//   callers validate user input with the isValid* predicates first.

const DAY_MS = 86_400_000;

// Constructing a DateTimeFormat looks up ICU's zone data, which costs far
// more than formatting with one (docs/performance.md). The cache is keyed by the
// caller's spelling and cleared when it grows large, because Intl accepts
// any letter case ('europe/paris'), so user input could otherwise grow it
// without bound.
const FORMATTER_CACHE_LIMIT = 1000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  const cached = formatters.get(timeZone);
  if (cached) return cached;
  // Offset strings ('+01:00') are not IANA names; newer V8 versions accept
  // them, so reject them here to behave the same on every Node version.
  if (timeZone.startsWith('+') || timeZone.startsWith('-')) {
    throw new RangeError(`Invalid time zone: ${timeZone}`);
  }
  // en-US/gregory/latn pins digits and calendar regardless of the host
  // locale; h23 avoids the "24:00" midnight that hour12:false can produce.
  const formatter = new Intl.DateTimeFormat('en-US', {
    timeZone,
    calendar: 'gregory',
    numberingSystem: 'latn',
    hourCycle: 'h23',
    era: 'short',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  if (formatters.size >= FORMATTER_CACHE_LIMIT) formatters.clear();
  formatters.set(timeZone, formatter);
  return formatter;
}

export function isValidTimeZone(tz: string): boolean {
  if (tz === '') return false;
  try {
    formatterFor(tz);
    return true;
  } catch {
    return false;
  }
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^(\d{2}):(\d{2})$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function parseDate(s: string): { year: number; month: number; day: number } | null {
  const m = DATE_RE.exec(s);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

function parseTime(s: string): { hour: number; minute: number } | null {
  const m = TIME_RE.exec(s);
  if (!m) return null;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  if (hour > 23 || minute > 59) return null;
  return { hour, minute };
}

export function isValidDate(s: string): boolean {
  return parseDate(s) !== null;
}

export function isValidTime(s: string): boolean {
  return parseTime(s) !== null;
}

function requireDate(s: string): { year: number; month: number; day: number } {
  const d = parseDate(s);
  if (!d) throw new RangeError(`Invalid date (expected YYYY-MM-DD): ${s}`);
  return d;
}

function requireTime(s: string): { hour: number; minute: number } {
  const t = parseTime(s);
  if (!t) throw new RangeError(`Invalid time (expected HH:MM): ${s}`);
  return t;
}

/** Epoch ms of a wall clock read as if it were UTC. */
function wallToUtcMs(w: WallClock): number {
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear does not.
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, 0);
  return d.getTime();
}

// en-US output for the options above, e.g. "03/08/2026 AD, 07:30:00".
const FORMATTED_RE = /^(\d{2})\/(\d{2})\/(\d+) (AD|BC), (\d{2}):(\d{2}):(\d{2})$/;

function wallClockAt(ms: number, timeZone: string): WallClock {
  if (!Number.isFinite(ms)) throw new RangeError(`Invalid epoch milliseconds: ${ms}`);
  const formatter = formatterFor(timeZone);
  // format() and a regex are cheaper than formatToParts() (docs/performance.md); the
  // parts path stays as a fallback in case an ICU update changes the en-US pattern.
  const m = FORMATTED_RE.exec(formatter.format(ms));
  if (m) {
    const year = Number(m[3]);
    return {
      // Intl counts 1 BC, 2 BC...; ISO-style astronomical years are 0, -1...
      year: m[4] === 'BC' ? 1 - year : year,
      month: Number(m[1]),
      day: Number(m[2]),
      hour: Number(m[5]),
      minute: Number(m[6]),
      second: Number(m[7]),
    };
  }
  return wallClockFromParts(formatter.formatToParts(ms));
}

function wallClockFromParts(parts: Intl.DateTimeFormatPart[]): WallClock {
  const w: WallClock = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  let bc = false;
  for (const part of parts) {
    switch (part.type) {
      case 'era':
        bc = part.value === 'BC';
        break;
      case 'year':
      case 'month':
      case 'day':
      case 'hour':
      case 'minute':
      case 'second':
        w[part.type] = Number(part.value);
        break;
      default:
        break;
    }
  }
  if (bc) w.year = 1 - w.year;
  return w;
}

/** UTC offset (ms, east positive) in force at the instant `ms`. */
function offsetAt(ms: number, timeZone: string): number {
  // Intl has second resolution; compare against the instant floored to the
  // second so sub-second input does not leak into the offset. Offsets keep
  // their seconds: pre-1900 local mean times are not whole minutes.
  const floored = ms - (((ms % 1000) + 1000) % 1000);
  return wallToUtcMs(wallClockAt(ms, timeZone)) - floored;
}

function pad(n: number, width: number): string {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? `-${s}` : s;
}

/**
 * Resolve a wall-clock reading (as fake-UTC ms) to an instant.
 * Returns the instant plus, for gaps, the transition bounds that
 * zonedDayStartEpochMs needs.
 */
function resolveWall(
  localMs: number,
  timeZone: string,
): { ms: number; gap: null } | { ms: number; gap: { before: number; after: number } } {
  // Real-world transitions are days apart and no gap or overlap exceeds 24 h
  // (Samoa 2011 skipped exactly one day), so the offsets in force a day
  // either side are the only ones this wall time can map to.
  const before = offsetAt(localMs - DAY_MS, timeZone);
  const after = offsetAt(localMs + DAY_MS, timeZone);
  let best: number | null = null;
  for (const offset of before === after ? [before] : [before, after]) {
    const candidate = localMs - offset;
    if (offsetAt(candidate, timeZone) === offset && (best === null || candidate < best)) {
      best = candidate;
    }
  }
  if (best !== null) return { ms: best, gap: null };
  // Gap: reading the wall time with the pre-transition offset lands past the
  // transition, i.e. the wall time shifted forward by the gap's length.
  return { ms: localMs - before, gap: { before, after } };
}

export function zonedDateTimeToEpochMs(date: string, time: string, timeZone: string): number {
  const d = requireDate(date);
  const t = requireTime(time);
  return resolveWall(wallToUtcMs({ ...d, ...t, second: 0 }), timeZone).ms;
}

export function epochMsToZonedParts(ms: number, timeZone: string): { date: string; time: string } {
  const w = wallClockAt(ms, timeZone);
  return {
    date: `${pad(w.year, 4)}-${pad(w.month, 2)}-${pad(w.day, 2)}`,
    // Seconds are dropped (truncated), matching the HH:MM input format.
    time: `${pad(w.hour, 2)}:${pad(w.minute, 2)}`,
  };
}

export function epochMsToZonedDate(ms: number, timeZone: string): string {
  return epochMsToZonedParts(ms, timeZone).date;
}

/**
 * First instant whose local date is `date`. Usually local midnight; in zones
 * whose DST switch skips midnight (e.g. America/Havana) it is the instant of
 * the switch. Statistics ranges are [dayStart(d), dayStart(d + 1)).
 * A day skipped entirely (Pacific/Apia 2011-12-30) yields an empty range.
 */
export function zonedDayStartEpochMs(date: string, timeZone: string): number {
  const d = requireDate(date);
  const localMidnight = wallToUtcMs({ ...d, hour: 0, minute: 0, second: 0 });
  const resolved = resolveWall(localMidnight, timeZone);
  if (resolved.gap === null) return resolved.ms;
  // Midnight falls in a gap. Shifting it forward by the gap length (what
  // zonedDateTimeToEpochMs does) overshoots when the gap starts before
  // midnight, so find the transition itself: the offset is `before` at lo and
  // `after` at hi. Transitions fall on whole seconds; bisect at that grain.
  let lo = Math.floor((localMidnight - resolved.gap.after) / 1000);
  let hi = Math.ceil((localMidnight - resolved.gap.before) / 1000);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetAt(mid * 1000, timeZone) === resolved.gap.before) lo = mid;
    else hi = mid;
  }
  return hi * 1000;
}
