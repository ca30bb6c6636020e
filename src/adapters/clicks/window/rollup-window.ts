import type { Click } from '../../../core/clicks/click.ts';
import { UNKNOWN_VALUE, type Dimension } from '../../../core/stats/dimensions.ts';
import {
  hourValue,
  sortIncrements,
  valueOf,
  type RollupIncrement,
  type VisitorMark,
} from '../../../core/stats/rollups.ts';
import { decisionValue } from '../../../core/stats/decision-value.ts';
import type { MarkSet, WrittenMarks } from './written-marks.ts';

// Per day and link, a sum's key is one small integer: dimension × 2^17 + the index of its value
// among the values of that dimension seen in the window (131 072 distinct values of a dimension
// per window). Small integers hash and compare without allocating, where a key that also held
// the link id would be a heap number, and a joined string would be built for every sum (ten
// sums a click, tens of thousands of clicks a second).
const DIMENSION_UNIT = 2 ** 17;

const DIMENSIONS: readonly Dimension[] = [
  'total',
  'hour',
  'unique',
  'bot',
  'country',
  'city',
  'browser',
  'platform',
  'device',
  'language',
  'referrer',
  'decision',
  'qr',
];
// Indices into DIMENSIONS ('total' and 'bot' are LinkSums' fields; 'unique' is counted from the
// visitor marks when written).
const HOUR = 1,
  COUNTRY = 4,
  CITY = 5,
  BROWSER = 6,
  PLATFORM = 7,
  DEVICE = 8,
  LANGUAGE = 9,
  REFERRER = 10,
  DECISION = 11,
  QR = 12;
const DIMENSION_INDEX = new Map(DIMENSIONS.map((d, i) => [d, i]));
const HOUR_VALUES = Array.from({ length: 24 }, (_, h) => hourValue(h));

/** The distinct values of one dimension in the window, each with its index; '' is always 0. */
class Values {
  readonly list: string[] = [UNKNOWN_VALUE];
  private readonly index = new Map<string, number>([[UNKNOWN_VALUE, 0]]);

  of(value: string): number {
    let i = this.index.get(value);
    if (i === undefined) {
      i = this.list.length;
      if (i >= DIMENSION_UNIT) throw new RangeError('too many distinct values in one rollup window');
      this.list.push(value);
      this.index.set(value, i);
    }
    return i;
  }
}

/**
 * The sums of one link on one day. Total and bot, counted for every click, are fields; the
 * other dimensions' sums are slots of the window's `counts`, found by key (dimension ×
 * DIMENSION_UNIT + value index): one Map lookup a sum rather than a get and a set.
 */
class LinkSums {
  total = 0;
  bot = 0;
  readonly slots = new Map<number, number>();
  /** The visitor marks of the link on the day (made with the first). */
  visitors: Set<string> | null = null;
}

/** The value under key, made and stored first if there is none. */
function within<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
// Made once, so the hot path passes a function rather than allocating a closure per click.
const newMap = <K, V>() => new Map<K, V>();
const newLinkSums = () => new LinkSums();

/**
 * The rollups of many click batches, summed in memory and written together: a link visited
 * k times in a window costs one row write per dimension value, not k (docs/design/clicks.md).
 */
export class RollupWindow {
  private sums = new Map<string, Map<number, LinkSums>>();
  private counts: number[] = [];
  private values = DIMENSIONS.map(() => new Values());
  private rows = 0;
  // Nearly every click of a window is of the same day: its links are looked up once.
  private lastDay = '';
  private lastDayLinks: Map<number, LinkSums> | null = null;

  /** `written`: marks already in the database, which the window leaves out. */
  constructor(private readonly written: WrittenMarks | null = null) {}

  /** Sums the clicks in; keeps their fields, never a click itself (they may be one reused object). */
  add(clicks: Iterable<Click>): void {
    const values = this.values;
    for (const click of clicks) {
      const sums = this.sumsOf(click.day, click.linkId);
      if (click.isBot) {
        if (sums.bot++ === 0) this.rows++;
        continue;
      }
      if (sums.total++ === 0) this.rows++;
      this.count(sums, HOUR, values[HOUR]!.of(HOUR_VALUES[click.hour] ?? hourValue(click.hour)), 1);
      this.count(sums, COUNTRY, values[COUNTRY]!.of(valueOf(click.country)), 1);
      this.count(sums, CITY, values[CITY]!.of(valueOf(click.city)), 1);
      this.count(sums, BROWSER, values[BROWSER]!.of(valueOf(click.browser)), 1);
      this.count(sums, PLATFORM, values[PLATFORM]!.of(valueOf(click.platform)), 1);
      this.count(sums, DEVICE, values[DEVICE]!.of(valueOf(click.device)), 1);
      this.count(sums, LANGUAGE, values[LANGUAGE]!.of(valueOf(click.language)), 1);
      this.count(sums, REFERRER, values[REFERRER]!.of(valueOf(click.referrerHost)), 1);
      // Only clicks a rule decided: the link's url has the rest (its total less these).
      if (click.rule !== undefined && click.rule !== null)
        this.count(sums, DECISION, values[DECISION]!.of(decisionValue(click.rule, click.variant ?? null)), 1);
      // Only QR scans: every other visit is the total less these.
      if (click.qr === true) this.count(sums, QR, 0, 1);
      if (click.visitor !== null && this.written?.has(click.day, click.linkId, click.visitor) !== true)
        this.mark(sums, click.visitor);
    }
  }

  /** Rows the window holds (sums and visitor marks): the store writes early when it gets large. */
  get size(): number {
    return this.rows;
  }

  /** Everything summed so far: increments in key order (link, dimension, day, value), marks in key order (day, link, visitor). The window starts empty again. */
  drain(): DrainedRollups {
    const drained = { increments: [...this.orderedIncrements()], marks: [...this.orderedMarks()] };
    this.take();
    return drained;
  }

  /**
   * Everything summed so far, as a window of its own, at no cost; this one starts empty. The
   * taken window is read out with orderedMarks() and orderedIncrements() a part at a time, so
   * a large window never holds the redirect's thread for the whole of it (docs/design/clicks.md).
   */
  take(): RollupWindow {
    const taken = new RollupWindow();
    [taken.sums, this.sums] = [this.sums, taken.sums];
    [taken.counts, this.counts] = [this.counts, taken.counts];
    [taken.values, this.values] = [this.values, taken.values];
    [taken.rows, this.rows] = [this.rows, 0];
    this.lastDay = '';
    this.lastDayLinks = null;
    return taken;
  }

  /** The links summed, ascending. */
  linkIds(): number[] {
    const ids = new Set<number>();
    for (const links of this.sums.values()) for (const id of links.keys()) ids.add(id);
    return [...ids].sort((a, b) => a - b);
  }

  /** The visitor marks, a set per link and day, as they are held (for WrittenMarks once written). */
  markSets(): MarkSet[] {
    const sets: MarkSet[] = [];
    for (const [day, links] of this.sums)
      for (const [linkId, { visitors }] of links) if (visitors !== null) sets.push({ day, linkId, visitors });
    return sets;
  }

  /** Visitor marks in key order (day, link, visitor): the order in which concurrent writers insert them. */
  *orderedMarks(): Generator<VisitorMark> {
    for (const day of [...this.sums.keys()].sort()) {
      const links = this.sums.get(day)!;
      for (const linkId of [...links.keys()].sort((a, b) => a - b)) {
        const { visitors } = links.get(linkId)!;
        if (visitors !== null) for (const visitor of [...visitors].sort()) yield { linkId, day, visitor };
      }
    }
  }

  /**
   * Increments in key order (link, dimension, day, value), made and sorted one link at a time
   * (small groups, far cheaper than sorting the whole window by a compound key). `unique` adds
   * each link and day's count of visitors the store found new.
   */
  *orderedIncrements(unique?: ReadonlyMap<number, ReadonlyMap<string, number>>): Generator<RollupIncrement> {
    const days = [...this.sums.keys()].sort();
    for (const linkId of this.linkIds()) {
      const group: RollupIncrement[] = [];
      for (const day of days) {
        const sums = this.sums.get(day)!.get(linkId);
        if (sums === undefined) continue;
        if (sums.total > 0) group.push({ linkId, day, dimension: 'total', value: UNKNOWN_VALUE, count: sums.total });
        if (sums.bot > 0) group.push({ linkId, day, dimension: 'bot', value: UNKNOWN_VALUE, count: sums.bot });
        for (const [key, slot] of sums.slots) {
          const d = Math.floor(key / DIMENSION_UNIT);
          group.push({
            linkId,
            day,
            dimension: DIMENSIONS[d]!,
            value: this.values[d]!.list[key - d * DIMENSION_UNIT]!,
            count: this.counts[slot]!,
          });
        }
        const fresh = unique?.get(linkId)?.get(day);
        if (fresh) group.push({ linkId, day, dimension: 'unique', value: UNKNOWN_VALUE, count: fresh });
      }
      yield* sortIncrements(group);
    }
  }

  /** Takes back what take() gave when writing it failed, so that nothing is lost. */
  absorb(taken: RollupWindow): void {
    this.putBack({ increments: taken.orderedIncrements(), marks: taken.orderedMarks() });
  }

  /** Takes back what drain() gave when writing it failed, so that nothing is lost. */
  putBack(drained: { increments: Iterable<RollupIncrement>; marks: Iterable<VisitorMark> }): void {
    for (const r of drained.increments) {
      const sums = this.sumsOf(r.day, r.linkId);
      if (r.dimension === 'total' || r.dimension === 'bot') {
        const before = r.dimension === 'total' ? sums.total : sums.bot;
        if (before === 0) this.rows++;
        if (r.dimension === 'total') sums.total += r.count;
        else sums.bot += r.count;
        continue;
      }
      const d = DIMENSION_INDEX.get(r.dimension)!;
      this.count(sums, d, this.values[d]!.of(r.value), r.count);
    }
    for (const m of drained.marks) this.mark(this.sumsOf(m.day, m.linkId), m.visitor);
  }

  private sumsOf(day: string, linkId: number): LinkSums {
    if (!Number.isSafeInteger(linkId) || linkId < 0) throw new RangeError(`link id out of range: ${linkId}`);
    let links = this.lastDayLinks;
    if (links === null || day !== this.lastDay) {
      links = within(this.sums, day, newMap<number, LinkSums>);
      this.lastDay = day;
      this.lastDayLinks = links;
    }
    return within(links, linkId, newLinkSums);
  }

  private count(sums: LinkSums, dimension: number, valueIndex: number, n: number): void {
    const key = dimension * DIMENSION_UNIT + valueIndex;
    const slot = sums.slots.get(key);
    if (slot !== undefined) {
      this.counts[slot]! += n;
      return;
    }
    sums.slots.set(key, this.counts.length);
    this.counts.push(n);
    this.rows++;
  }

  private mark(sums: LinkSums, visitor: string): void {
    const visitors = (sums.visitors ??= new Set());
    if (!visitors.has(visitor)) {
      visitors.add(visitor);
      this.rows++;
    }
  }
}

export interface DrainedRollups {
  increments: RollupIncrement[];
  marks: VisitorMark[];
}
