import type { LinkStore } from '../../core/links/link-store.ts';
import { StatsService } from '../../core/stats/stats-service.ts';
import { StatsMaintenance } from '../../core/stats/stats-maintenance.ts';
import { ClickExportService } from '../../core/stats/click-export.ts';
import { SqlStatsStore } from '../../adapters/storage/stores/stats-store.ts';
import { SqlFilteredClickStore } from '../../adapters/storage/stores/filtered-click-store.ts';
import { SqlClickRetention } from '../../adapters/storage/stores/click-retention.ts';
import { SqlRollupMonths } from '../../adapters/storage/stores/rollup-months.ts';
import { SqlRawClickStore } from '../../adapters/storage/stores/raw-click-store.ts';
import { LinkClickCounts } from '../../adapters/clicks/postgres/link-click-counts.ts';
import { WorkspaceStatsService } from '../../core/analytics/workspace-stats-service.ts';
import type { WorkspacesService } from '../../core/workspaces/workspaces-service.ts';
import { SqlWorkspaceStatsStore } from '../../adapters/storage/stores/workspace-stats-store.ts';
import { SqlWorkspaceStore } from '../../adapters/storage/stores/workspace-store.ts';
import type { Base } from './base.ts';

/** Statistics (docs/design/statistics.md): the queries, the timed jobs, the click export, PostgreSQL's pending counts. */
export function statsServices(base: Base, links: LinkStore, workspaces: Pick<WorkspacesService, 'require'>) {
  const { config, storage, clock } = base;
  const months = new SqlRollupMonths(storage.db, storage.engine);
  const now = () => clock.now();
  const statsStore = new SqlStatsStore(storage.db, storage.engine, months, { now });
  const workspaceStore = new SqlWorkspaceStore(storage.db);
  return {
    workspaceStats: new WorkspaceStatsService({
      store: new SqlWorkspaceStatsStore(storage.db, { now, reads: storage.reads }),
      stats: statsStore,
      workspaces,
      find: (id) => workspaceStore.find(id),
      clock,
    }),
    stats: new StatsService({
      links,
      stats: statsStore,
      filtered: new SqlFilteredClickStore(storage),
      clock,
      retentionDays: config.CLICK_RETENTION_DAYS,
      minCount: config.STATS_MIN_COUNT,
    }),
    statsMaintenance: new StatsMaintenance({
      retention: new SqlClickRetention(storage.db, storage.engine),
      months,
      clock,
      retentionDays: config.CLICK_RETENTION_DAYS,
    }),
    clickExport: new ClickExportService({ links, clicks: new SqlRawClickStore(storage), clock }),
    linkClickCounts: storage.engine === 'postgres' ? new LinkClickCounts(storage.db) : null,
  };
}
