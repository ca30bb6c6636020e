import type { PageRequest } from '../shared/page.ts';
import type { Dimension } from './dimensions.ts';
import type { DayRange } from './range.ts';

/** A value of a dimension and its clicks over a range; null: not known (no Referer, no city…). */
export interface ValueCount {
  value: string | null;
  count: number;
  /** The sum of the values a public page does not show one by one (rare-values.ts); value is null. */
  other?: true;
}

/** The range's headline numbers: human clicks, sum of daily unique visitors, bot visits. */
export interface StatsSummary {
  total: number;
  unique: number;
  bots: number;
}

export type StatsOrder = 'max' | 'min' | 'value';

export interface BreakdownQuery {
  /** Case-insensitive substring of the value; unknown values never match. */
  search?: string | undefined;
  /** max/min by count, ties by value; value: by value. */
  order: StatsOrder;
  /** null: every entry (exports). */
  page: PageRequest | null;
}

/** Reads the per-day rollups only: never click rows. */
export interface StatsStore {
  /** Human clicks per day of the range (days without any are left out). */
  perDay(linkId: number, range: DayRange): Promise<ValueCount[]>;
  /** Count per value of a dimension over the range, every value (for hours, which are few). */
  counts(linkId: number, dimension: Dimension, range: DayRange): Promise<ValueCount[]>;
  /** Count per value, filtered, sorted and paged by the database, with the number of entries. */
  breakdown(
    linkId: number,
    dimension: Dimension,
    range: DayRange,
    query: BreakdownQuery,
  ): Promise<{ items: ValueCount[]; total: number }>;
  summary(linkId: number, range: DayRange): Promise<StatsSummary>;
  /** Human clicks per day of the range over every link of an account (days without any are left out). */
  accountPerDay(accountId: number, range: DayRange): Promise<ValueCount[]>;
  /** Human clicks per link and day of the range, for a page of links at once (days without any are left out). */
  linksPerDay(linkIds: readonly number[], range: DayRange): Promise<LinkDayCount[]>;
}

export interface LinkDayCount {
  linkId: number;
  day: string;
  count: number;
}

/** How much one round of folding may do. */
export interface FoldRound {
  /** The time now: a click writer whose lease ended before it has batches still to roll up. */
  now: number;
  /** At most about this many links a round (a group more at most). */
  links: number;
  /** No new group after this long, once one has been folded: a stop waits for one group at most. */
  ms: number;
}

/** Folds the daily rollups of finished months into monthly ones (docs/design/statistics.md). */
export interface MonthFolder {
  /**
   * Folds, link by link, the months before `month` (YYYY-MM) not folded yet, and answers how
   * many links it went through: 0 when every month before `month` is folded, or while a dead
   * click writer's batches wait to be rolled up into days the folding would read.
   */
  foldBefore(month: string, round: FoldRound): Promise<number>;
}

/** Removes raw clicks past their retention; rollups stay. */
export interface ClickRetention {
  /**
   * Deletes click rows older than `before`, visitor marks of days before `visitorsBefore`, and
   * any rows left of deleted links (a store whose deletions do not cascade to click rows).
   */
  prune(before: number | null, visitorsBefore: string): Promise<{ clicks: number; visitors: number }>;
}
