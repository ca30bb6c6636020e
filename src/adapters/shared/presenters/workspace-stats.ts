import type { WorkspaceStatsResult } from '../../../core/analytics/workspace-stats-service.ts';
import type { WorkspaceValueCount } from '../../../core/analytics/workspace-stats.ts';
import { toCsv } from '../csv/csv.ts';

/** An entry as the API and the CSV give it: a `links` entry names its link. */
export const workspaceStatsEntry = (e: WorkspaceValueCount) =>
  e.linkId === undefined ? { value: e.value, count: e.count } : { value: e.value, count: e.count, link_id: e.linkId };

export const workspaceStatsSummary = (r: WorkspaceStatsResult) => ({
  name: r.name,
  from: r.range.from,
  to: r.range.to,
  timezone: r.timeZone,
  total: r.clicks,
});

export function workspaceStatsCsv(r: WorkspaceStatsResult): string {
  if (r.name === 'links')
    return toCsv(
      ['value', 'count', 'link_id'],
      r.items.map((e) => [e.value, e.count, e.linkId ?? null]),
    );
  return toCsv(
    ['value', 'count'],
    r.items.map((e) => [e.value, e.count]),
  );
}

/** workspace-3-tags-2026-01-01-2026-01-31.csv: digits, letters, _ and -, safe in a header. */
export function workspaceStatsCsvFilename(workspaceId: number, r: WorkspaceStatsResult): string {
  return `workspace-${workspaceId}-${r.name}-${r.range.from}-${r.range.to}.csv`;
}
