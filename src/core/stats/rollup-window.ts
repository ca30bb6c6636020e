import type { Click } from '../clicks/click.ts';
import { UNKNOWN_VALUE, type Dimension } from './dimensions.ts';
import { hourValue, sortIncrements, valueOf, type RollupIncrement, type VisitorMark } from './rollups.ts';

// A sum's key is one number: link × 2^21 + dimension × 2^17 + value, where value is the index
// of its string among the values of that dimension seen in the window. Exact below 2^53: link
// ids below 2^32 (the column is a 32-bit integer on PostgreSQL), 16 dimensions, 131 072
// distinct values of a dimension per window. One Map of
// numbers per day holds far less than a Map per link, day and dimension, and a number hashes
// faster than a joined string (ten sums a click, tens of thousands of clicks a second).
const LINK_UNIT = 2 ** 21;
const DIMENSION_UNIT = 2 ** 17;
const MAX_LINK_ID = 2 ** 32;

const DIMENSIONS: readonly Dimension[] = ['total', 'hour', 'unique', 'bot', 'country', 'city', 'browser', 'platform', 'device', 'language', 'referrer'];
const DIMENSION_INDEX = new Map(DIMENSIONS.map((d, i) => [d, i]));

function baseOf(linkId: number): number {
  if (!Number.isInteger(linkId) || linkId < 0 || linkId >= MAX_LINK_ID) throw new RangeError(`link id out of range: ${linkId}`);
  return linkId * LINK_UNIT;
}

/** The distinct values of one dimension in the window, each with its index. */
class Values {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();

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
 * The rollups of many click batches, summed in memory and written together: a link visited
 * k times in a window costs one row write per dimension value, not k (docs/adr/0008).
 */
export class RollupWindow {
  private sums = new Map<string, Map<number, number>>();
  private marks = new Map<string, Map<number, Set<string>>>();
  private values = DIMENSIONS.map(() => new Values());
  private rows = 0;

  add(clicks: readonly Click[]): void {
    for (const click of clicks) {
      const sums = this.dayOf(click.day);
      const base = baseOf(click.linkId);
      if (click.isBot) {
        this.count(sums, base, 'bot', UNKNOWN_VALUE, 1);
        continue;
      }
      this.count(sums, base, 'total', UNKNOWN_VALUE, 1);
      this.count(sums, base, 'hour', hourValue(click.hour), 1);
      this.count(sums, base, 'country', valueOf(click.country), 1);
      this.count(sums, base, 'city', valueOf(click.city), 1);
      this.count(sums, base, 'browser', valueOf(click.browser), 1);
      this.count(sums, base, 'platform', valueOf(click.platform), 1);
      this.count(sums, base, 'device', valueOf(click.device), 1);
      this.count(sums, base, 'language', valueOf(click.language), 1);
      this.count(sums, base, 'referrer', valueOf(click.referrerHost), 1);
      if (click.visitor !== null) this.mark(click.linkId, click.day, click.visitor);
    }
  }

  /** Rows the window holds (sums and visitor marks): the store writes early when it gets large. */
  get size(): number {
    return this.rows;
  }

  /** Everything summed so far: increments in key order, marks grouped by link and day. The window starts empty again. */
  drain(): DrainedRollups {
    const increments: RollupIncrement[] = [];
    for (const [day, sums] of this.sums) {
      for (const [key, count] of sums) {
        const linkId = Math.floor(key / LINK_UNIT);
        const rest = key - linkId * LINK_UNIT;
        const d = Math.floor(rest / DIMENSION_UNIT);
        increments.push({ linkId, day, dimension: DIMENSIONS[d]!, value: this.values[d]!.list[rest - d * DIMENSION_UNIT]!, count });
      }
    }
    const marks: VisitorMark[] = [];
    for (const [day, links] of this.marks) {
      for (const [linkId, visitors] of links) for (const visitor of visitors) marks.push({ linkId, day, visitor });
    }
    this.sums = new Map();
    this.marks = new Map();
    this.values = DIMENSIONS.map(() => new Values());
    this.rows = 0;
    return { increments: sortIncrements(increments), marks };
  }

  /** Takes back what drain() gave when writing it failed, so that nothing is lost. */
  putBack(drained: DrainedRollups): void {
    for (const r of drained.increments) this.count(this.dayOf(r.day), baseOf(r.linkId), r.dimension, r.value, r.count);
    for (const m of drained.marks) this.mark(m.linkId, m.day, m.visitor);
  }

  private dayOf(day: string): Map<number, number> {
    let sums = this.sums.get(day);
    if (sums === undefined) {
      sums = new Map();
      this.sums.set(day, sums);
    }
    return sums;
  }

  private count(sums: Map<number, number>, base: number, dimension: Dimension, value: string, n: number): void {
    const d = DIMENSION_INDEX.get(dimension)!;
    const key = base + d * DIMENSION_UNIT + this.values[d]!.of(value);
    const before = sums.get(key);
    if (before === undefined) this.rows++;
    sums.set(key, (before ?? 0) + n);
  }

  private mark(linkId: number, day: string, visitor: string): void {
    let links = this.marks.get(day);
    if (links === undefined) {
      links = new Map();
      this.marks.set(day, links);
    }
    let visitors = links.get(linkId);
    if (visitors === undefined) {
      visitors = new Set();
      links.set(linkId, visitors);
    }
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

/**
 * What one batch of clicks adds to the rollups, one increment per row touched, in key order
 * (link, dimension, day, value) so that concurrent writers lock rows in the same order.
 * Bots add to `bot` only; `unique` comes from the visitor marks the store finds new.
 */
export function rollupsOf(clicks: readonly Click[]): RollupIncrement[] {
  return windowOf(clicks).increments;
}

/** The distinct visitor marks of a batch's human clicks. */
export function visitorMarksOf(clicks: readonly Click[]): VisitorMark[] {
  return windowOf(clicks).marks;
}

function windowOf(clicks: readonly Click[]): DrainedRollups {
  const window = new RollupWindow();
  window.add(clicks);
  return window.drain();
}
