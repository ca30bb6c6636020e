import type { Link } from '../links/link.ts';
import type { LinkStore } from '../links/link-store.ts';
import type { Clock } from '../shared/clock.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import { offsetOf, type Page, type PageRequest } from '../shared/page.ts';
import { epochMsToZonedDate } from '../expiration/ends-at.ts';
import { DIMENSION_OF, isStatsName, type StatsName } from './dimensions.ts';
import {
  byLocal,
  FILTERED_ROWS_MAX,
  filteredSpan,
  newestOf,
  type ClickSpan,
  type FilteredClickStore,
} from './filtered-clicks.ts';
import { periodChange } from './period-change.ts';
import type { StatsFilter } from './stats-filter.ts';
import { DEFAULT_RANGE_DAYS, addDays, daysOf, resolveRange, type DayRange } from './range.ts';
import { hourValue } from './rollups.ts';
import { presetRange, previousRange, type RangePreset } from './range-presets.ts';
import { foldRare, isFoldedName } from './rare-values.ts';
import { seesEveryValue, showsDestination, type StatsAccess } from './stats-access.ts';
import type { StatsOrder, StatsStore, StatsSummary, ValueCount } from './stats-store.ts';

export interface StatsQuery {
  name: StatsName;
  from?: string | undefined;
  to?: string | undefined;
  search?: string | undefined;
  /** max/min by count (ties by value). Absent: days and hours in order, the rest by max. */
  sort?: 'max' | 'min' | undefined;
  /** null: every entry, unpaged (exports). */
  page: PageRequest | null;
  /** Only clicks matching all of these (stats-filter.ts); the owner's alone, anyone else's are ignored. */
  filters?: readonly StatsFilter[] | undefined;
}

/** The range's headline numbers; `unique` is null under filters (click rows keep no visitor). */
export interface ResultSummary extends Omit<StatsSummary, 'unique'> {
  unique: number | null;
}

export interface StatsResult extends Page<ValueCount> {
  name: StatsName;
  range: DayRange;
  timeZone: string;
  summary: ResultSummary;
  /** Values with fewer clicks than this are summed into one `other` entry; null: every value is listed. */
  foldedBelow: number | null;
  /** The filters applied: none for anyone but the owner, whatever was asked. */
  filters: readonly StatsFilter[];
  /** Under filters, the instant (epoch ms) before which no click is counted (filtered-clicks.ts); else null. */
  countedSince: number | null;
  /** Under filters, whether `countedSince` cut the range to its newest clicks (FILTERED_ROWS_MAX) rather than to what the retention keeps. */
  countedNewestOnly: boolean;
}

/** A page's headline: the range's numbers and the change of its clicks against the period before. */
export interface StatsHeadline {
  summary: ResultSummary;
  previous: { range: DayRange; total: number };
  /** periodChange of the clicks; null when the period before had none. */
  change: number | null;
  countedSince: number | null;
  countedNewestOnly: boolean;
}

/** An account's clicks over its last days, for its dashboard. */
export interface AccountClicks {
  range: DayRange;
  /** Every day of the range in order, zeros included. */
  days: ValueCount[];
  /** Human clicks over the whole range. */
  total: number;
  /** Human clicks of the range's last day: today in the account's time zone. */
  today: number;
}

/** One link's clicks per day of a range (oldest first) and their sum. */
export interface LinkClicks {
  range: DayRange;
  perDay: number[];
  total: number;
}

export interface StatsServiceDeps {
  links: Pick<LinkStore, 'findById' | 'findAnyById'>;
  stats: StatsStore;
  filtered: FilteredClickStore;
  clock: Clock;
  /** CLICK_RETENTION_DAYS: filtered figures read no further back than the raw clicks are kept (0: forever). */
  retentionDays: number;
  /** Public pages fold values with fewer clicks than this (STATS_MIN_COUNT); 1: none. */
  minCount: number;
}

/** A public viewer's range when the URL names no preset: the API's default, the last 30 days. */
const PUBLIC_DEFAULT_PRESET: RangePreset = 'last30';

const HOURS = Array.from({ length: 24 }, (_, h) => hourValue(h));

/** The statistics' queries (api.md §8): read from the rollups, owner-only; the timed jobs are StatsMaintenance's. */
export class StatsService {
  constructor(private readonly deps: StatsServiceDeps) {}

  /**
   * A link's numbers, asked as its `account` (the owner, whose time zone decides the days).
   * `access`: who will read them (stats-access.ts); a statistics page's viewer other than the
   * owner gets the rare values of each breakdown folded (rare-values.ts). Required: a caller that
   * forgot it must not fall back to everything.
   */
  async query(
    account: { id: number; timezone: string },
    linkId: number,
    q: StatsQuery,
    access: StatsAccess,
  ): Promise<StatsResult> {
    if (!isStatsName(q.name)) throw ValidationError.of('name', messages.selected('name'));
    const range = resolveRange(q, this.deps.clock.now(), account.timezone);
    if (!(await this.deps.links.findById(account.id, linkId))) throw new NotFoundError('link');
    const filters = seesEveryValue(access) ? (q.filters ?? []) : [];
    if (filters.length > 0) return this.filteredQuery(account.timezone, linkId, q, range, filters);
    const [summary, list] = await Promise.all([
      this.deps.stats.summary(linkId, range),
      this.list(linkId, q, range, access),
    ]);
    return {
      ...list,
      range,
      timeZone: account.timezone,
      summary,
      filters: [],
      countedSince: null,
      countedNewestOnly: false,
    };
  }

  /**
   * What a statistics page's overview shows of a range: its headline and several lists, read
   * with one ownership check and one summary of the range rather than one per list
   * (docs/design/statistics.md). The same numbers as `headline`
   * and a `query` per list.
   */
  async overview(
    account: { id: number; timezone: string },
    linkId: number,
    q: {
      range: DayRange;
      filters?: readonly StatsFilter[] | undefined;
      lists: ReadonlyArray<Omit<StatsQuery, 'from' | 'to' | 'filters'>>;
    },
    access: StatsAccess,
  ): Promise<{ headline: StatsHeadline; lists: StatsResult[] }> {
    const filters = seesEveryValue(access) ? (q.filters ?? []) : [];
    const { range } = q;
    if (filters.length > 0) {
      // Read from the click rows, each list with its own totals (filteredQuery).
      const [headline, lists] = await Promise.all([
        this.headline(account, linkId, q, access),
        Promise.all(q.lists.map((list) => this.query(account, linkId, { ...list, ...range, filters }, access))),
      ]);
      return { headline, lists };
    }
    for (const list of q.lists)
      if (!isStatsName(list.name)) throw ValidationError.of('name', messages.selected('name'));
    if (!(await this.deps.links.findById(account.id, linkId))) throw new NotFoundError('link');
    const previous = previousRange(range);
    const [summary, before, lists] = await Promise.all([
      this.deps.stats.summary(linkId, range),
      this.deps.stats.summary(linkId, previous),
      Promise.all(q.lists.map((list) => this.list(linkId, list, range, access))),
    ]);
    return {
      headline: {
        summary,
        previous: { range: previous, total: before.total },
        change: periodChange(summary.total, before.total),
        countedSince: null,
        countedNewestOnly: false,
      },
      lists: lists.map((list) => ({
        ...list,
        range,
        timeZone: account.timezone,
        summary,
        filters: [],
        countedSince: null,
        countedNewestOnly: false,
      })),
    };
  }

  /** A list's entries from the rollups, paged, its rare values folded for viewers other than the owner. */
  private async list(
    linkId: number,
    q: Omit<StatsQuery, 'from' | 'to' | 'filters'>,
    range: DayRange,
    access: StatsAccess,
  ) {
    const foldedBelow = seesEveryValue(access) || !isFoldedName(q.name) ? null : this.deps.minCount;
    const entries =
      foldedBelow === null
        ? await this.entries(linkId, q, range)
        : await this.foldedEntries(linkId, q, range, foldedBelow);
    const page = q.page ?? { page: 1, perPage: Math.max(1, entries.items.length) };
    return { ...entries, ...page, name: q.name, foldedBelow };
  }

  /**
   * The headline of a page: the range's numbers (filtered as `query` filters them) and its
   * clicks against the period of the same length just before.
   */
  async headline(
    account: { id: number; timezone: string },
    linkId: number,
    q: { range: DayRange; filters?: readonly StatsFilter[] | undefined },
    access: StatsAccess,
  ): Promise<StatsHeadline> {
    if (!(await this.deps.links.findById(account.id, linkId))) throw new NotFoundError('link');
    const filters = seesEveryValue(access) ? (q.filters ?? []) : [];
    const previous = previousRange(q.range);
    const [now, before] = await Promise.all([
      this.summaryOf(account.timezone, linkId, q.range, filters),
      this.summaryOf(account.timezone, linkId, previous, filters),
    ]);
    return {
      summary: now.summary,
      previous: { range: previous, total: before.summary.total },
      change: periodChange(now.summary.total, before.summary.total),
      countedSince: now.countedSince,
      countedNewestOnly: now.countedNewestOnly,
    };
  }

  private async summaryOf(
    timeZone: string,
    linkId: number,
    range: DayRange,
    filters: readonly StatsFilter[],
  ): Promise<{ summary: ResultSummary; countedSince: number | null; countedNewestOnly: boolean }> {
    if (filters.length === 0)
      return { summary: await this.deps.stats.summary(linkId, range), countedSince: null, countedNewestOnly: false };
    const span = await this.spanOf(timeZone, linkId, range);
    return {
      summary: { ...(await this.deps.filtered.totals(linkId, span, filters)), unique: null },
      countedSince: span.since,
      countedNewestOnly: span.newestOnly,
    };
  }

  /** The instants filtered figures read: the range within the retention and FILTERED_DAYS_MAX, cut to its newest FILTERED_ROWS_MAX rows. */
  private async spanOf(
    timeZone: string,
    linkId: number,
    range: DayRange,
  ): Promise<ClickSpan & { since: number | null; newestOnly: boolean }> {
    const span = filteredSpan(range, timeZone, this.deps.clock.now(), this.deps.retentionDays);
    return newestOf(span, await this.deps.filtered.newestFrom(linkId, span, FILTERED_ROWS_MAX));
  }

  /** Numbers read from the click rows (filtered-clicks.ts): what the rollups cannot cross. */
  private async filteredQuery(
    timeZone: string,
    linkId: number,
    q: StatsQuery,
    range: DayRange,
    filters: readonly StatsFilter[],
  ): Promise<StatsResult> {
    const span = await this.spanOf(timeZone, linkId, range);
    const store = this.deps.filtered;
    const dimension = DIMENSION_OF[q.name];
    const order: StatsOrder = q.sort ?? (q.name === 'clicks' || q.name === 'clicks_hours' ? 'value' : 'max');
    let counted: Promise<ValueCount[]>;
    if (q.name === 'clicks' || q.name === 'clicks_hours') {
      const unit = q.name === 'clicks' ? 'day' : 'hour';
      counted = store
        .quarters(linkId, span, filters)
        .then((quarters) => filled(unit === 'day' ? daysOf(range) : HOURS, byLocal(unit, quarters, timeZone)));
    } else if (dimension === 'total' || dimension === 'hour' || dimension === 'unique' || dimension === 'bot') {
      counted = Promise.resolve([]);
    } else {
      counted = store.counts(linkId, dimension, span, filters);
    }
    const [totals, items] = await Promise.all([store.totals(linkId, span, filters), counted]);
    const entries = pageOf(arrange(items, q.search, order), q.page);
    const page = q.page ?? { page: 1, perPage: Math.max(1, entries.items.length) };
    return {
      ...entries,
      ...page,
      name: q.name,
      range,
      timeZone,
      summary: { ...totals, unique: null },
      foldedBelow: null,
      filters,
      countedSince: span.since,
      countedNewestOnly: span.newestOnly,
    };
  }

  /**
   * The link a statistics page names, whoever owns it, or null. Who may see its numbers is the
   * page's to decide by the link's privacy (stats-access.ts); the numbers are then asked with
   * `query` as its owner (the owner's time zone decides the days).
   */
  linkOf(linkId: number): Promise<Link | null> {
    return this.deps.links.findAnyById(linkId);
  }

  /** Whether a statistics page may name the link's destination and title to this viewer, now. */
  showsDestination(access: StatsAccess, link: Link): boolean {
    return showsDestination(access, link, this.deps.clock.now());
  }

  /**
   * The days a statistics page asks for, in the owner's zone: a preset (today, last 7 days…,
   * `all` from the day the link was made), else `from`/`to` as the API takes them (422s naming
   * the field), else the API's default (the last 30 days). Anyone but the owner gets a preset.
   */
  rangeFor(
    input: { preset?: RangePreset | undefined; from?: string | undefined; to?: string | undefined },
    timeZone: string,
    createdAt: number,
    access: StatsAccess,
  ): DayRange {
    const now = this.deps.clock.now();
    if (input.preset) return presetRange(input.preset, now, timeZone, createdAt);
    // Windows of one's own choosing, compared day against day, would tell which common values
    // the clicks of a single day had: others than the owner get the presets, anchored on today.
    if (!seesEveryValue(access)) return presetRange(PUBLIC_DEFAULT_PRESET, now, timeZone, createdAt);
    return resolveRange({ from: input.from, to: input.to }, now, timeZone);
  }

  /**
   * Human clicks per day over all the account's links, the last `days` days up to today in its
   * time zone, read from the rollups like a link's statistics (so the two agree).
   */
  async accountClicks(
    account: { id: number; timezone: string },
    days: number = DEFAULT_RANGE_DAYS,
  ): Promise<AccountClicks> {
    const to = epochMsToZonedDate(this.deps.clock.now(), account.timezone);
    const range = { from: addDays(to, -(days - 1)), to };
    const perDay = filled(daysOf(range), await this.deps.stats.accountPerDay(account.id, range));
    return {
      range,
      days: perDay,
      total: perDay.reduce((sum, d) => sum + d.count, 0),
      today: perDay.at(-1)?.count ?? 0,
    };
  }

  /**
   * Each link's human clicks per day over the last `days` days in the account's zone, zeros
   * included (the links list's trends), read for the whole page at once.
   */
  async linksClicks(
    account: { timezone: string },
    linkIds: readonly number[],
    days: number = DEFAULT_RANGE_DAYS,
  ): Promise<Map<number, LinkClicks>> {
    const to = epochMsToZonedDate(this.deps.clock.now(), account.timezone);
    const range = { from: addDays(to, -(days - 1)), to };
    const byLink = new Map<number, ValueCount[]>(linkIds.map((id) => [id, []]));
    for (const row of await this.deps.stats.linksPerDay(linkIds, range))
      byLink.get(row.linkId)?.push({ value: row.day, count: row.count });
    const all = daysOf(range);
    return new Map(
      [...byLink].map(([id, counted]) => {
        const perDay = filled(all, counted).map((d) => d.count);
        return [id, { range, perDay, total: perDay.reduce((sum, n) => sum + n, 0) }];
      }),
    );
  }

  private async entries(
    linkId: number,
    q: Omit<StatsQuery, 'from' | 'to' | 'filters'>,
    range: DayRange,
  ): Promise<{ items: ValueCount[]; total: number }> {
    const dimension = DIMENSION_OF[q.name];
    const order: StatsOrder = q.sort ?? (q.name === 'clicks' || q.name === 'clicks_hours' ? 'value' : 'max');
    if (q.name === 'clicks' || q.name === 'clicks_hours') {
      // Days and hours are listed whole, zeros included, so a chart needs no gap filling.
      const [all, counted] =
        q.name === 'clicks'
          ? [daysOf(range), await this.deps.stats.perDay(linkId, range)]
          : [HOURS, await this.deps.stats.counts(linkId, dimension, range)];
      return pageOf(arrange(filled(all, counted), q.search, order), q.page);
    }
    return this.deps.stats.breakdown(linkId, dimension, range, { search: q.search, order, page: q.page });
  }

  /**
   * A breakdown with its rare values folded: the whole list first, so that neither a search nor
   * a page can pick a folded value out; then searched, sorted and paged, the other entry last.
   */
  private async foldedEntries(
    linkId: number,
    q: Omit<StatsQuery, 'from' | 'to' | 'filters'>,
    range: DayRange,
    minCount: number,
  ): Promise<{ items: ValueCount[]; total: number }> {
    const all = await this.deps.stats.breakdown(linkId, DIMENSION_OF[q.name], range, { order: 'max', page: null });
    const folded = foldRare(all.items, minCount);
    const other = folded.filter((e) => e.other);
    // The other entry has no value: a search never matches it, as it never matches unknown values.
    const listed = arrange(
      folded.filter((e) => !e.other),
      q.search,
      q.sort ?? 'max',
    );
    return pageOf(q.search ? listed : [...listed, ...other], q.page);
  }
}

export function filled(values: readonly string[], counted: readonly ValueCount[]): ValueCount[] {
  const counts = new Map(counted.map((c) => [c.value, c.count]));
  return values.map((value) => ({ value, count: counts.get(value) ?? 0 }));
}

const byValue = (a: ValueCount, b: ValueCount) => {
  const x = a.value ?? '';
  const y = b.value ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The same filter and order the store applies in SQL, for lists built in memory. */
export function arrange(items: ValueCount[], search: string | undefined, order: StatsOrder): ValueCount[] {
  const needle = search?.toLowerCase();
  const kept = needle ? items.filter((i) => i.value !== null && i.value.toLowerCase().includes(needle)) : [...items];
  if (order === 'value') return kept.sort(byValue);
  const sign = order === 'max' ? -1 : 1;
  return kept.sort((a, b) => sign * (a.count - b.count) || byValue(a, b));
}

export function pageOf(items: ValueCount[], page: PageRequest | null): { items: ValueCount[]; total: number } {
  if (page === null) return { items, total: items.length };
  const start = offsetOf(page);
  return { items: items.slice(start, start + page.perPage), total: items.length };
}
