import { addDays, dateOfDayNumber, type DayRange } from './range.ts';

/**
 * Statistics over long ranges read monthly sums of the daily rollups where whole months are
 * inside the range and already folded (docs/design/statistics.md), and quarterly sums of the monthly ones
 * where whole quarters are. A month is `YYYY-MM`.
 */

const monthOf = (year: number, month: number): string =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;

/** The month after `month`. */
export function nextMonth(month: string): string {
  const year = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 12 ? monthOf(year + 1, 1) : monthOf(year, m + 1);
}

/** The month before `month`. */
export function previousMonth(month: string): string {
  const year = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 1 ? monthOf(year - 1, 12) : monthOf(year, m - 1);
}

/** The first month of `month`'s quarter: quarters are keyed by it (YYYY-01, -04, -07, -10). */
export function quarterOf(month: string): string {
  const m = Number(month.slice(5, 7));
  return monthOf(Number(month.slice(0, 4)), m - ((m - 1) % 3));
}

const nextQuarter = (month: string): string => nextMonth(nextMonth(nextMonth(quarterOf(month))));
const previousQuarter = (month: string): string => quarterOf(previousMonth(quarterOf(month)));

/** Whole months, or whole quarters by their first months, from and to inclusive. */
export interface MonthSpan {
  from: string;
  to: string;
}

/**
 * Where a range's rows are: the days to read from the daily rollups, the whole months to read
 * from the monthly ones, and the whole quarters to read from the quarterly ones, only those
 * before `foldedBefore` (a quarter is folded with its last month: docs/design/statistics.md).
 */
export interface RangeParts {
  days: DayRange[];
  months: MonthSpan[];
  quarters: MonthSpan | null;
}

export function rangeParts(range: DayRange, foldedBefore: string): RangeParts {
  const firstWhole = range.from.endsWith('-01') ? range.from.slice(0, 7) : nextMonth(range.from.slice(0, 7));
  const lastWhole = addDays(range.to, 1).endsWith('-01') ? range.to.slice(0, 7) : previousMonth(range.to.slice(0, 7));
  const last = lastWhole < foldedBefore ? lastWhole : previousMonth(foldedBefore);
  if (firstWhole > last) return { days: [range], months: [], quarters: null };
  const days: DayRange[] = [];
  const monthsFrom = `${firstWhole}-01`;
  if (range.from < monthsFrom) days.push({ from: range.from, to: addDays(monthsFrom, -1) });
  const after = `${nextMonth(last)}-01`;
  if (after <= range.to) days.push({ from: after, to: range.to });
  return { days, ...monthParts({ from: firstWhole, to: last }) };
}

/** Whole months split into the whole quarters among them and the months either side. */
function monthParts(span: MonthSpan): Pick<RangeParts, 'months' | 'quarters'> {
  const firstQuarter = quarterOf(span.from) === span.from ? span.from : nextQuarter(span.from);
  // The quarter after the last whole one: the months from here on are a quarter's beginning.
  const afterQuarters = quarterOf(nextMonth(span.to));
  if (firstQuarter >= afterQuarters) return { months: [span], quarters: null };
  const months: MonthSpan[] = [];
  if (span.from < firstQuarter) months.push({ from: span.from, to: previousMonth(firstQuarter) });
  if (afterQuarters <= span.to) months.push({ from: afterQuarters, to: span.to });
  return { months, quarters: { from: firstQuarter, to: previousQuarter(afterQuarters) } };
}

// Days after a month's end before it is folded: a local day ends up to 14 hours after UTC's,
// and clicks reach the rollups after their flush, a writer's recovery or a database outage.
const SETTLE_DAYS = 3;

/** The days before this one (YYYY-MM-DD) are over everywhere and get no more clicks: (now − 3 days), UTC. */
export function settledBefore(now: number): string {
  return dateOfDayNumber(Math.floor(now / 86_400_000) - SETTLE_DAYS);
}

/** The months before this one are over everywhere and folded: the month of settledBefore. */
export function foldableBefore(now: number): string {
  return settledBefore(now).slice(0, 7);
}
