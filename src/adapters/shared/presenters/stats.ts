import type { StatsResult } from '../../../core/stats/stats-service.ts';
import type { ValueCount } from '../../../core/stats/stats-store.ts';
import { toCsv } from '../csv/csv.ts';

export const statsEntry = (e: ValueCount) => ({ value: e.value, count: e.count });

export const statsSummary = (r: StatsResult) => ({
  name: r.name,
  from: r.range.from,
  to: r.range.to,
  timezone: r.timeZone,
  total: r.summary.total,
  unique: r.summary.unique,
  bots: r.summary.bots,
});

/** A public page's other entry (its rare values summed) in the CSV, spelt as analytics tools spell it. */
const OTHER_CSV_VALUE = '(other)';

export function statsCsv(r: StatsResult): string {
  return toCsv(
    ['value', 'count'],
    r.items.map((e) => [e.other ? OTHER_CSV_VALUE : e.value, e.count]),
  );
}

/** link-7-country-2026-01-01-2026-01-31.csv: every part is digits, letters, _ and -, safe in a header. */
export function statsCsvFilename(linkId: number, r: StatsResult): string {
  return `link-${linkId}-${r.name}-${r.range.from}-${r.range.to}.csv`;
}
