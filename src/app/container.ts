import { inspect } from 'node:util';
import { sql } from 'kysely';
import { systemClock, type Clock } from '../core/shared/clock.ts';
import type { Mailer } from '../core/mail/mailer.ts';
import { AdminService } from '../core/admin/admin-service.ts';
import type { SignInService } from '../core/accounts/sign-in-service.ts';
import type { DomainOperator } from '../core/domains/domain-operator.ts';
import type { DomainOwnershipCheck } from '../core/domains/ownership-check.ts';
import type { TitleFetcher } from '../core/links/title-fetcher.ts';
import { UrlPolicy } from '../core/links/url-policy.ts';
import type { StatsMaintenance } from '../core/stats/stats-maintenance.ts';
import type { SealKeys } from '../adapters/secrets/seal-keys.ts';
import { connect, type Storage } from '../adapters/storage/connect.ts';
import type { OutageLog } from '../adapters/shared/outage-reporter.ts';
import { migrateToLatest } from '../adapters/storage/migrations/index.ts';
import { SqlAdminStore } from '../adapters/storage/stores/admin-store.ts';
import type { PrivacyReport } from '../core/privacy/privacy-report.ts';
import type { LinkClickCounts } from '../adapters/clicks/postgres/link-click-counts.ts';
import type { ApiContext } from '../adapters/http/handlers/context.ts';
import type { Config } from './config.ts';
import { tuningOf, type Tuning } from './tuning.ts';
import { createVisitRuntime, type VisitRuntime } from './visit-runtime.ts';
import type { WebhookRuntime, WebhookRuntimeOverrides } from './webhook-runtime.ts';
import { forgetQuotaOf, recordsOn, type Base } from './container/base.ts';
import { mailOf } from './container/mail.ts';
import { sealKeysOf } from './container/seal-keys.ts';
import { accountServices } from './container/accounts.ts';
import { securityServices, type SecurityServices } from './container/security.ts';
import { workspaceServices } from './container/workspaces.ts';
import { domainServices, recordServices } from './container/records.ts';
import { linkServices } from './container/links.ts';
import { webhooksOf } from './container/webhooks.ts';
import { statsServices } from './container/stats.ts';
import { ruleServices } from './container/rules.ts';
import { healthOf } from './container/health.ts';
import { digestsOf, type DigestArea } from './container/digests.ts';
import { integrationsOf } from './container/integrations.ts';
import { privacyOf } from './container/privacy.ts';
import type { DestinationChecker } from '../core/health/ports.ts';
import { FirstStepsService } from '../core/onboarding/first-steps.ts';
import { SqlFirstStepsStore } from '../adapters/storage/stores/first-steps-store.ts';
import type { KeptImports } from '../adapters/import/kept-imports.ts';

export interface Container extends ApiContext, DigestArea {
  signIn: SignInService;
  /** The key sealing secrets at rest (docs/design/secrets.md); the start awaits its check. */
  sealKeys: SealKeys;
  security: SecurityServices;
  admin: AdminService;
  /** What visits and people leave in the database (/privacy, /admin/data, `linkpix privacy report`). */
  privacy: PrivacyReport;
  storage: Storage;
  /** The dashboard's first-run checklist. */
  firstSteps: FirstStepsService;
  /** Web dry runs' files, kept for their confirmation on any instance (the server's job removes the expired). */
  keptImports: KeptImports;
  /** The constants in force (docs/design/settings.md): their values, or a test's. */
  tuning: Tuning;
  /** The statistics' timed jobs (retention, folding), run by the server's scheduler. */
  statsMaintenance: StatsMaintenance;
  /** PostgreSQL's pending link click counts, settled by the server now and then (null on SQLite). */
  linkClickCounts: LinkClickCounts | null;
  /** The operator's side of domains (the CLI). */
  domainOperator: DomainOperator;
  visits: VisitRuntime;
  /** Started and stopped by the server; the CLI's changes only enqueue. */
  hooks: WebhookRuntime;
  /** Scheduled destination checks are on (HEALTH_CHECK_INTERVAL_HOURS above 0): the server runs their round. */
  healthScheduled: boolean;
  clock: Clock;
  migrate(): Promise<string[]>;
  close(): Promise<void>;
}

export interface ContainerOverrides {
  clock?: Clock;
  titles?: TitleFetcher | null;
  /** PostgreSQL schema to work in (tests isolate themselves this way). */
  pgSchema?: string;
  onError?: (error: unknown) => void;
  /** Replaces the DNS and HTTP checks of domain ownership (tests never reach real DNS). */
  domainChecks?: readonly DomainOwnershipCheck[];
  /** Where a lost database or Redis connection, and its return, is told. */
  outageLog?: OutageLog;
  /** Replaces the mailer SMTP_URL picks. */
  mailer?: Mailer;
  /** Replaces the webhooks' sender and target check (tests). */
  webhooks?: WebhookRuntimeOverrides;
  /** Replaces the HTTP destination checker (tests). */
  healthChecker?: DestinationChecker;
  /** Where the server's log lines go, at LOG_LEVEL (tests read them); standard output when absent. */
  logStream?: { write(line: string): void };
  /** Constants a test moves (docs/design/settings.md); the rest keep their values. */
  tuning?: Partial<Tuning>;
  /** Where the seal key's warnings go (SEAL_KEY unset on PostgreSQL, a key file gone): the server's logger; standard error (unless LOG_LEVEL=silent) when absent. */
  warn?: (line: string) => void;
}

/** One line per event: the stack of a refused connection says nothing an operator needs. */
export const consoleOutageLog: OutageLog = (message, error) =>
  console.error(
    `linkpix: ${message}${error === undefined ? '' : `: ${error instanceof Error ? error.message : inspect(error)}`}`,
  );

/** The settings, the constants, the database and the visit's runtime every area is built from. */
function baseOf(config: Config, overrides: ContainerOverrides): Base {
  const outageLog = overrides.outageLog ?? consoleOutageLog;
  const tuning = tuningOf(overrides.tuning);
  const storage = connect(config.DATABASE_URL, {
    schema: overrides.pgSchema,
    poolSize: config.DATABASE_POOL_SIZE,
    outageLog,
  });
  const visits = createVisitRuntime(config, tuning, storage, {
    onError: overrides.onError ?? ((e) => console.error('linkpix:', e)),
    outageLog,
    pgSchema: overrides.pgSchema,
  });
  return { config, tuning, storage, clock: overrides.clock ?? systemClock, visits, onError: overrides.onError };
}

/**
 * The composition root: the one place that knows every adapter and wires it to the core. Each
 * area (src/app/container/) builds its services from the stores; this composes them.
 */
export function createContainer(config: Config, overrides: ContainerOverrides = {}): Container {
  const base = baseOf(config, overrides);
  const { storage, tuning, clock, visits } = base;
  const sealKeys = sealKeysOf(base, overrides.warn);
  const urls = new UrlPolicy(config.URL_SCHEMES, config.APP_SCHEMES);
  const records = recordsOn(storage);
  const stores = records(storage.db);
  const forgetQuota = forgetQuotaOf(visits);
  const shortUrls = { appUrl: config.APP_URL, domainScheme: config.DOMAIN_SCHEME };
  const hooks = webhooksOf(base, { recordsOn: records, shortUrls, overrides: overrides.webhooks });
  const linkArea = linkServices(base, {
    stores,
    recordsOn: records,
    urls,
    hooks,
    forgetQuota,
    titles: overrides.titles,
  });
  const healthArea = healthOf(base, { hooks, checker: overrides.healthChecker });
  const mail = mailOf(config, overrides.mailer);
  const people = accountServices(base, { forgetQuota, mailer: mail.mailer });
  const accounts = people.store;
  const { links, qr, images } = linkArea;
  const ruleArea = ruleServices(base, { links: stores.links, linksService: links, urls });
  const teams = workspaceServices(base, { accounts, accountsService: people.service, mailServer: mail.server });
  return {
    ...linkArea,
    ...digestsOf(base, mail.server),
    ...teams,
    ...recordServices(base, stores),
    ...domainServices(base, { stores, urls, accounts, checks: overrides.domainChecks }),
    ...statsServices(base, stores.links, teams.workspaces),
    ...ruleArea,
    integrations: integrationsOf(base, { sealKeys, conversions: ruleArea.conversions }),
    storage,
    firstSteps: new FirstStepsService(new SqlFirstStepsStore(storage.db), base.clock),
    tuning,
    sealKeys,
    visits,
    hooks,
    health: healthArea.health,
    healthScheduled: healthArea.healthScheduled,
    security: securityServices(base, people, { sealKeys, mailer: mail.mailer, mailed: mail.server !== null }),
    webhooks: hooks.service,
    clock,
    accounts: people.service,
    signIn: people.signIn,
    urlSchemes: config.URL_SCHEMES,
    admin: new AdminService({
      store: new SqlAdminStore(storage.db),
      accounts,
      sessions: people.sessions,
      deleteAccount: (id) => people.service.deleteAccount(id),
      invalidation: visits.invalidation,
      clock,
    }),
    privacy: privacyOf(base),
    urls: shortUrls,
    ping: async () => {
      await sql`select 1`.execute(storage.db);
    },
    redisUp: () => (visits.redis ? visits.redis.status === 'ready' : null),
    snapshotServes: () => visits.source.snapshotServes(),
    migrate: () => migrateToLatest(storage.db, storage.engine),
    close: async () => {
      await links.idle();
      await qr.close();
      await images.close();
      await hooks.stop();
      await healthArea.closeHealth();
      await visits.close();
      mail.smtp?.close();
      await storage.close();
    },
  };
}
