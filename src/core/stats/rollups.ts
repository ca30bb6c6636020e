import { UNKNOWN_VALUE, VALUE_MAX_LENGTH, type Dimension } from './dimensions.ts';

/** Clicks to add to one rollup row: link, local day, dimension, value. */
export interface RollupIncrement {
  linkId: number;
  day: string;
  dimension: Dimension;
  value: string;
  count: number;
}

/** A visitor seen on a link on a local day; the first one of each counts as unique. */
export interface VisitorMark {
  linkId: number;
  day: string;
  visitor: string;
}

export function hourValue(hour: number): string {
  return hour < 10 ? `0${hour}` : String(hour);
}

export function valueOf(raw: string | null): string {
  if (raw === null) return UNKNOWN_VALUE;
  return raw.length > VALUE_MAX_LENGTH ? raw.slice(0, VALUE_MAX_LENGTH) : raw;
}

/** One `unique` increment per (link, day) for the marks that were new. */
export function uniqueIncrements(fresh: ReadonlyArray<{ linkId: number; day: string }>): RollupIncrement[] {
  const byKey = new Map<string, RollupIncrement>();
  for (const { linkId, day } of fresh) {
    const key = `${linkId}\u0000${day}`;
    const found = byKey.get(key);
    if (found) found.count++;
    else byKey.set(key, { linkId, day, dimension: 'unique', value: UNKNOWN_VALUE, count: 1 });
  }
  return [...byKey.values()];
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function sortIncrements(rows: RollupIncrement[]): RollupIncrement[] {
  return rows.sort(
    (a, b) =>
      a.linkId - b.linkId || compare(a.dimension, b.dimension) || compare(a.day, b.day) || compare(a.value, b.value),
  );
}
