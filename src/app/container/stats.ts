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
import type { Base } from './base.ts';

/** Statistics (docs/design/statistics.md): the queries, the timed jobs, the click export, PostgreSQL's pending counts. */
export function statsServices(base: Base, links: LinkStore) {
  const { config, storage, clock } = base;
  const months = new SqlRollupMonths(storage.db, storage.engine);
  return {
    stats: new StatsService({
      links,
      stats: new SqlStatsStore(storage.db, storage.engine, months, { now: () => clock.now() }),
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
