import type { StatsResult } from '../../../core/stats/stats-service.ts';
import type { ValueCount } from '../../../core/stats/stats-store.ts';
import { toCsv } from './csv.ts';

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

export function statsCsv(r: StatsResult): string {
  return toCsv(
    ['value', 'count'],
    r.items.map((e) => [e.value, e.count]),
  );
}

/** link-7-country-2026-01-01-2026-01-31.csv: every part is digits, letters, _ and -, safe in a header. */
export function statsCsvFilename(linkId: number, r: StatsResult): string {
  return `link-${linkId}-${r.name}-${r.range.from}-${r.range.to}.csv`;
}
