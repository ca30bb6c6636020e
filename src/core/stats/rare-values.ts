import type { StatsName } from './dimensions.ts';
import type { ValueCount } from './stats-store.ts';

/**
 * The breakdowns that describe a visitor (where from, which browser, system, device, language,
 * which site sent them): on a public page a value seen a handful of times points at the few
 * people who clicked (docs/design/statistics.md). Days and hours say when, not who: they stay exact, as do
 * the totals.
 */
const FOLDED: ReadonlySet<StatsName> = new Set<StatsName>([
  'country',
  'cities',
  'browser',
  'platform',
  'device',
  'language',
  'referrer',
]);

export function isFoldedName(name: StatsName): boolean {
  return FOLDED.has(name);
}

/**
 * A breakdown as a public page may show it: every value with at least `minCount` clicks, in the
 * order given, then one "Other" entry (`other: true`, value null) summing the rest, when there
 * is any. The sum of the counts is unchanged, so shares and totals stay exact. The values of
 * the other entry are not told, nor how many they were.
 */
export function foldRare(items: readonly ValueCount[], minCount: number): ValueCount[] {
  const kept: ValueCount[] = [];
  let other = 0;
  for (const item of items) {
    if (item.count >= minCount) kept.push({ value: item.value, count: item.count });
    else other += item.count;
  }
  if (other > 0) kept.push({ value: null, count: other, other: true });
  return kept;
}
