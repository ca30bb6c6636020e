import { epochMsToZonedDate, isValidDate } from '../expiration/ends-at.ts';
import { FieldErrorBag } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';

/** Local calendar days, both inclusive, YYYY-MM-DD in the account's time zone. */
export interface DayRange {
  from: string;
  to: string;
}

/** Without `from`, a range covers this many days up to `to` (today by default). */
export const DEFAULT_RANGE_DAYS = 30;
/** Longest range asked at once: ten years. The per-day list has one entry per day. */
export const MAX_RANGE_DAYS = 3660;

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a valid YYYY-MM-DD (proleptic Gregorian; calendar days have no zone). */
export function dayNumber(date: string): number {
  const d = new Date(0);
  d.setUTCFullYear(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  return Math.round(d.getTime() / DAY_MS);
}

export function dateOfDayNumber(n: number): string {
  const d = new Date(n * DAY_MS);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + 1;
  const day = d.getUTCDate();
  return `${String(y).padStart(4, '0')}-${m < 10 ? '0' : ''}${m}-${day < 10 ? '0' : ''}${day}`;
}

export function addDays(date: string, days: number): string {
  return dateOfDayNumber(dayNumber(date) + days);
}

/** Every day of the range, in order. */
export function daysOf(range: DayRange): string[] {
  const out: string[] = [];
  for (let n = dayNumber(range.from), end = dayNumber(range.to); n <= end; n++) out.push(dateOfDayNumber(n));
  return out;
}

/**
 * The range a request asks for. `to` defaults to today in the account's zone, `from` to
 * DEFAULT_RANGE_DAYS − 1 days before `to`. Malformed or impossible dates, `from` after `to`,
 * and ranges longer than MAX_RANGE_DAYS are 422s naming the field.
 */
export function resolveRange(
  input: { from?: string | undefined; to?: string | undefined },
  now: number,
  timeZone: string,
): DayRange {
  const bag = new FieldErrorBag();
  if (input.from !== undefined && !isValidDate(input.from)) bag.add('from', messages.date('from'));
  if (input.to !== undefined && !isValidDate(input.to)) bag.add('to', messages.date('to'));
  bag.throwIfAny();
  const to = input.to ?? epochMsToZonedDate(now, timeZone);
  const from = input.from ?? addDays(to, -(DEFAULT_RANGE_DAYS - 1));
  const length = dayNumber(to) - dayNumber(from) + 1;
  if (length < 1) bag.add('to', 'The to field must be a date after or equal to from.');
  else if (length > MAX_RANGE_DAYS)
    bag.add('to', `The to field must be a date at most ${MAX_RANGE_DAYS - 1} days after from.`);
  bag.throwIfAny();
  return { from, to };
}
