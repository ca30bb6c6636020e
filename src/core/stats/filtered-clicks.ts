import { epochMsToZonedDate, epochMsToZonedParts, zonedDayStartEpochMs } from '../expiration/ends-at.ts';
import type { Breakdown } from './dimensions.ts';
import { addDays, type DayRange } from './range.ts';
import type { StatsFilter } from './stats-filter.ts';
import type { ValueCount } from './stats-store.ts';

/**
 * Filtered statistics (docs/design/statistics.md). The rollups count each breakdown on its own, so "clicks
 * from Germany by browser" is read from the click rows: by the (link_id, at) index, between two
 * instants, and never further back than FILTERED_DAYS_MAX however long the page's range.
 */
export const FILTERED_DAYS_MAX = 366;

/**
 * The most click rows a filtered figure reads: a link with millions of recent clicks would
 * otherwise keep its statement busy for seconds, and on SQLite every statement runs on the
 * redirect's thread (docs/design/clicks.md). Past it, the newest rows are counted and the page says since
 * when (docs/design/statistics.md).
 */
export const FILTERED_ROWS_MAX = 200_000;

/** A quarter of an hour: every time zone's offset today is a whole number of them. */
export const QUARTER_MS = 900_000;
const DAY_MS = 86_400_000;

/** Instants [from, to), epoch ms. */
export interface ClickSpan {
  from: number;
  to: number;
}

/** Reads click rows of one link within a span, matching every filter; bots only where said. */
export interface FilteredClickStore {
  /** Human clicks and bot visits. */
  totals(linkId: number, span: ClickSpan, filters: readonly StatsFilter[]): Promise<{ total: number; bots: number }>;
  /** Human clicks per quarter hour, keyed by its number since the epoch (at / QUARTER_MS), quarters without any left out. */
  quarters(
    linkId: number,
    span: ClickSpan,
    filters: readonly StatsFilter[],
  ): Promise<Array<{ quarter: number; count: number }>>;
  /** Human clicks per value of a breakdown (null: not known). */
  counts(linkId: number, breakdown: Breakdown, span: ClickSpan, filters: readonly StatsFilter[]): Promise<ValueCount[]>;
  /**
   * When the reads above would go through more than `rows` click rows in the span, the instant
   * from which the newest `rows` of them start (reading from it on reads about that many); else null.
   */
  newestFrom(linkId: number, span: ClickSpan, rows: number): Promise<number | null>;
}

/** A span cut to its newest rows (`newestFrom`'s answer), and whether it was. */
export function newestOf(
  span: ClickSpan & { since: number | null },
  from: number | null,
): ClickSpan & { since: number | null; newestOnly: boolean } {
  return from === null || from <= span.from
    ? { ...span, newestOnly: false }
    : { from, to: span.to, since: from, newestOnly: true };
}

/**
 * The instants of a range's local days, cut to what filtered statistics read: the last
 * FILTERED_DAYS_MAX days, and no earlier than the retention keeps rows (0: forever). `since` is
 * the cut, or null when the whole range is read.
 */
export function filteredSpan(
  range: DayRange,
  timeZone: string,
  now: number,
  retentionDays: number,
): ClickSpan & { since: number | null } {
  const from = zonedDayStartEpochMs(range.from, timeZone);
  const to = zonedDayStartEpochMs(addDays(range.to, 1), timeZone);
  const keptDays = retentionDays > 0 ? Math.min(retentionDays, FILTERED_DAYS_MAX) : FILTERED_DAYS_MAX;
  const earliest = now - keptDays * DAY_MS;
  return from >= earliest ? { from, to, since: null } : { from: earliest, to: Math.max(earliest, to), since: earliest };
}

/** Quarter-hour counts summed by local day or by local hour ('00'..'23') in a zone. */
export function byLocal(
  unit: 'day' | 'hour',
  quarters: ReadonlyArray<{ quarter: number; count: number }>,
  timeZone: string,
): ValueCount[] {
  const sums = new Map<string, number>();
  for (const { quarter, count } of quarters) {
    const at = quarter * QUARTER_MS;
    const key = unit === 'day' ? epochMsToZonedDate(at, timeZone) : epochMsToZonedParts(at, timeZone).time.slice(0, 2);
    sums.set(key, (sums.get(key) ?? 0) + count);
  }
  return [...sums].map(([value, count]) => ({ value, count }));
}
