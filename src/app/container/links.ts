import { LinksService, type LinksServiceDeps } from '../../core/links/links-service.ts';
import { LinkImporter } from '../../core/links/import/link-importer.ts';
import type { TitleFetcher } from '../../core/links/title-fetcher.ts';
import type { UrlPolicy } from '../../core/links/url-policy.ts';
import { ImportSlots } from '../../adapters/import/import-slots.ts';
import { HttpTitleFetcher } from '../../adapters/title/http-title-fetcher.ts';
import { QrRenderer } from '../../adapters/qr/qr-renderer.ts';
import { ImageThreads } from '../../adapters/images/image-threads.ts';
import { unitOfWorkOn } from '../../adapters/storage/transactions.ts';
import { SqlImportLeases } from '../../adapters/storage/stores/import-lease-store.ts';
import { SqlKeptImports } from '../../adapters/storage/stores/kept-import-store.ts';
import { SqlQrLogoStore } from '../../adapters/storage/stores/qr-logo-store.ts';
import { SqlCardImageStore } from '../../adapters/storage/stores/card-image-store.ts';
import { SqlAuditLog } from '../../adapters/storage/stores/audit-store.ts';
import { SqlLinkHistory } from '../../adapters/storage/stores/link-history-store.ts';
import { LinkHistoryService } from '../../core/links/link-history-service.ts';
import { SqlLinkSchedules } from '../../adapters/storage/stores/link-schedule-store.ts';
import { LinkScheduleService } from '../../core/links/link-schedule-service.ts';
import type { WebhookRuntime } from '../webhook-runtime.ts';
import type { Base, Records, RecordsOn } from './base.ts';

export interface LinkDeps {
  stores: Records;
  recordsOn: RecordsOn;
  urls: UrlPolicy;
  hooks: WebhookRuntime;
  forgetQuota: (id: number) => Promise<void>;
  /** A test's title fetcher (null: none); absent: TITLE_FETCH decides. */
  titles: TitleFetcher | null | undefined;
}

/** Links (made, changed, imported) and their QR codes. */
export function linkServices(base: Base, deps: LinkDeps) {
  const { storage, clock, tuning, visits } = base;
  const { recordsOn, hooks, urls } = deps;
  // A link change, its webhook deliveries, its audit entries and its version commit together
  // (docs/design/teams.md, docs/design/history.md).
  const unitOfWork = unitOfWorkOn(storage.db, (trx, afterCommit) => ({
    ...recordsOn(trx),
    onEvent: hooks.linkEventsOn(trx, afterCommit),
    audit: new SqlAuditLog(trx),
    history: new SqlLinkHistory(trx),
    schedules: new SqlLinkSchedules(trx),
  }));
  const changes: Omit<LinksServiceDeps, 'titles'> = {
    ...deps.stores,
    clock,
    urls,
    invalidation: visits.invalidation,
    forgetQuota: deps.forgetQuota,
    onEvent: hooks.onLinkEvent,
    unitOfWork,
    defaultPrivacy: tuning.DEFAULT_STATS_PRIVACY === 0 ? 0 : 1,
  };
  const importSlots = new ImportSlots(
    new SqlImportLeases(storage.db),
    tuning.IMPORT_CONCURRENCY,
    () => clock.now(),
    (e) => console.error('linkpix: import lease:', e),
  );
  const links = new LinksService({ ...changes, titles: titlesOf(base, deps.titles) });
  return {
    links,
    linkSchedules: new LinkScheduleService({ schedules: new SqlLinkSchedules(storage.db), links, clock }),
    importer: new LinkImporter(changes),
    linkHistory: new LinkHistoryService({ ...changes, history: new SqlLinkHistory(storage.db) }),
    importSlots,
    keptImports: new SqlKeptImports(storage.db),
    qr: new QrRenderer({ threads: tuning.QR_THREADS, queue: tuning.QR_QUEUE_MAX, cacheBytes: tuning.QR_CACHE_BYTES }),
    qrLogos: new SqlQrLogoStore(storage.db),
    cardImages: new SqlCardImageStore(storage.db),
    images: new ImageThreads(),
  };
}

/** The title of a link made without one, fetched from its page when TITLE_FETCH is on. */
function titlesOf({ config, tuning }: Base, override: TitleFetcher | null | undefined): TitleFetcher | null {
  if (override !== undefined) return override;
  if (!config.TITLE_FETCH) return null;
  return new HttpTitleFetcher({
    allowPrivate: config.OUTBOUND_ALLOW_PRIVATE,
    timeoutMs: tuning.TITLE_FETCH_TIMEOUT_MS,
  });
}
