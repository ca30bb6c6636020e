import { offsetOf, type PageRequest } from '../../../core/shared/page.ts';
import { UNKNOWN_VALUE } from '../../../core/stats/dimensions.ts';
import type { StatsOrder, ValueCount } from '../../../core/stats/stats-store.ts';
import type { ValueSumsView } from './settled-sums.ts';

/** A stored value as the API shows it: the unknown one as null. */
export const valueOf = (v: string): string | null => (v === UNKNOWN_VALUE ? null : v);

/**
 * Byte order of the values' UTF-8, as both engines sort them (PostgreSQL's "C" collation,
 * SQLite's BINARY): code points, which UTF-16 units follow except for surrogates against
 * U+E000 and up, so those two ranges are swapped before comparing.
 */
export function byBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return lift(x) - lift(y);
  }
  return a.length - b.length;
}

const lift = (unit: number): number => (unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit);

// Pages ending this far in are picked in one pass over the entries rather than a sort of them all.
const PICKED_MAX = 50;

/** Sums per value listed as the store's SQL lists them: ordered (ties by value), paged, with the number of entries. */
export function orderedPage(
  sums: ValueSumsView,
  order: StatsOrder,
  page: PageRequest | null,
): { items: ValueCount[]; total: number } {
  const sign = order === 'max' ? -1 : 1;
  const before = (count: number, value: string, b: [string, number]) =>
    order === 'value' ? byBytes(value, b[0]) : sign * (count - b[1]) || byBytes(value, b[0]);
  const start = page ? offsetOf(page) : 0;
  const end = page ? start + page.perPage : sums.size;
  let listed: Array<[string, number]> = [];
  if (end <= PICKED_MAX) {
    // The first `end` entries in order, kept sorted as the others go by; an entry is made only for those.
    sums.forEach((count, value) => {
      if (listed.length === end && before(count, value, listed[end - 1]!) >= 0) return;
      let i = listed.length;
      while (i > 0 && before(count, value, listed[i - 1]!) < 0) i--;
      listed.splice(i, 0, [value, count]);
      if (listed.length > end) listed.pop();
    });
    listed = listed.slice(start);
  } else {
    sums.forEach((count, value) => listed.push([value, count]));
    listed = listed.sort((a, b) => before(a[1], a[0], b)).slice(start, end);
  }
  return { items: listed.map(([value, count]) => ({ value: valueOf(value), count })), total: sums.size };
}
