import type { Click } from '../clicks/click.ts';
import { UNKNOWN_VALUE, type Dimension } from './dimensions.ts';
import { hourValue, sortIncrements, valueOf, type RollupIncrement, type VisitorMark } from './rollups.ts';

/** One link's local day: counts per dimension and value, and the visitors seen. */
interface DaySums {
  counts: Map<Dimension, Map<string, number>>;
  visitors: Set<string>;
}

/**
 * The rollups of many click batches, summed in memory and written together: a link visited
 * k times in a window costs one row write per dimension value, not k (docs/adr/0008).
 * Keyed link → day → dimension → value rather than by one joined string: building and hashing
 * such a string for each of the ten rows a click touches cost more than the sums themselves.
 */
export class RollupWindow {
  private links = new Map<number, Map<string, DaySums>>();
  private rows = 0;

  add(clicks: readonly Click[]): void {
    for (const click of clicks) {
      const day = this.dayOf(click.linkId, click.day);
      if (click.isBot) {
        this.count(day, 'bot', UNKNOWN_VALUE, 1);
        continue;
      }
      this.count(day, 'total', UNKNOWN_VALUE, 1);
      this.count(day, 'hour', hourValue(click.hour), 1);
      this.count(day, 'country', valueOf(click.country), 1);
      this.count(day, 'city', valueOf(click.city), 1);
      this.count(day, 'browser', valueOf(click.browser), 1);
      this.count(day, 'platform', valueOf(click.platform), 1);
      this.count(day, 'device', valueOf(click.device), 1);
      this.count(day, 'language', valueOf(click.language), 1);
      this.count(day, 'referrer', valueOf(click.referrerHost), 1);
      if (click.visitor !== null && !day.visitors.has(click.visitor)) {
        day.visitors.add(click.visitor);
        this.rows++;
      }
    }
  }

  /** Rows the window holds (sums and visitor marks): the store writes early when it gets large. */
  get size(): number {
    return this.rows;
  }

  /** Everything summed so far: increments in key order, marks grouped by link and day. The window starts empty again. */
  drain(): DrainedRollups {
    const increments: RollupIncrement[] = [];
    const marks: VisitorMark[] = [];
    for (const [linkId, days] of this.links) {
      for (const [day, sums] of days) {
        for (const [dimension, values] of sums.counts) {
          for (const [value, count] of values) increments.push({ linkId, day, dimension, value, count });
        }
        for (const visitor of sums.visitors) marks.push({ linkId, day, visitor });
      }
    }
    this.links = new Map();
    this.rows = 0;
    return { increments: sortIncrements(increments), marks };
  }

  /** Takes back what drain() gave when writing it failed, so that nothing is lost. */
  putBack(drained: DrainedRollups): void {
    for (const r of drained.increments) this.count(this.dayOf(r.linkId, r.day), r.dimension, r.value, r.count);
    for (const m of drained.marks) {
      const day = this.dayOf(m.linkId, m.day);
      if (!day.visitors.has(m.visitor)) {
        day.visitors.add(m.visitor);
        this.rows++;
      }
    }
  }

  private dayOf(linkId: number, day: string): DaySums {
    let days = this.links.get(linkId);
    if (days === undefined) {
      days = new Map();
      this.links.set(linkId, days);
    }
    let sums = days.get(day);
    if (sums === undefined) {
      sums = { counts: new Map(), visitors: new Set() };
      days.set(day, sums);
    }
    return sums;
  }

  private count(day: DaySums, dimension: Dimension, value: string, n: number): void {
    let values = day.counts.get(dimension);
    if (values === undefined) {
      values = new Map();
      day.counts.set(dimension, values);
    }
    const before = values.get(value);
    if (before === undefined) this.rows++;
    values.set(value, (before ?? 0) + n);
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
