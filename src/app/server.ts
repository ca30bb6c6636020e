import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { createHttpApp, type HttpOptions } from './http-app.ts';
import type { Config } from './config.ts';
import { consoleOutageLog, createContainer, type Container, type ContainerOverrides } from './container.ts';
import type { OutageLog } from '../adapters/shared/outage-reporter.ts';
import { UnlockCookies } from '../adapters/shared/request/unlock-cookies.ts';
import type { RedirectContext } from '../adapters/redirect/visit-context.ts';
import type { RateLimitSettings } from '../adapters/shared/request/rate-limit-settings.ts';
import type { WebOptions } from '../adapters/web/app/web-context.ts';
import { sharedSecret } from '../adapters/storage/stores/secret-store.ts';
import { verifyPassword } from '../core/shared/secrets.ts';
import { ClickStamper } from '../core/stats/click-stamp.ts';
import { STATS_PASSWORD_ATTEMPTS } from '../core/stats/stats-access.ts';
import { STATS_UNLOCK_SCOPE } from '../adapters/web/features/stats/stats-unlock.ts';
import { Scheduler } from '../adapters/shared/scheduler.ts';
import { clickRecoveryJob, serverJobs } from './background-jobs.ts';
import { warnOfRefusedSchemes } from './stored-scheme-warning.ts';
import { sharedRateLimitStore } from '../adapters/http/shared-rate-limit-store.ts';
import { uploadWindowMs } from '../adapters/http/upload-window.ts';
import { metricsOf, type Metrics } from './metrics.ts';
import type { MetricsServer } from '../adapters/metrics/metrics-server.ts';
import { LiveClickTap } from '../adapters/live/live-click-tap.ts';
import { clickSinkChain } from '../adapters/clicks/sink/sink-chain.ts';
import { LiveStreams } from '../adapters/web/features/live/live-streams.ts';
import { sweepImportLeftovers } from '../adapters/import/import-temp.ts';
import type { LoadedSnapshot } from '../adapters/snapshot/snapshot-reader.ts';
import { UnavailableError } from '../core/shared/errors.ts';
import { ClickIds } from '../core/conversions/click-id.ts';
import { randomToken } from '../core/shared/secrets.ts';

const SUBSCRIBE_WAIT_MS = 2000;

export interface Server {
  app: FastifyInstance;
  container: Container;
  /** Stops accepting, lets requests in flight finish, then closes the database. */
  close(): Promise<void>;
  /** After app.close(): stops background jobs, writes every buffered click, closes the database. */
  release(): Promise<void>;
  /**
   * Takes this process's lease on its click batches and rolls up those of dead writers, at once and
   * then on the background jobs' scheduler (src/app/background-jobs.ts): main.ts, before the writer
   * thread starts, so that a server a test builds takes no lease.
   */
  startClickRecovery(): void;
  /** GET /metrics on a port of its own (METRICS_PORT), listening already; null otherwise. */
  metricsServer: MetricsServer | null;
  /** Settles once the start's look at stored data has logged its warnings (in the background: a start never waits for it). */
  startWarnings: Promise<void>;
  /** Settles once the start has removed the import uploads a killed instance left (in the background). */
  leftoversSwept: Promise<void>;
  /**
   * Null after a normal start. After a start during a database outage (served from the redirect
   * snapshot, migrations and the seal key's check skipped): resolves once the database answers
   * again, when main.ts stops the process for its supervisor to start it whole (docs/design/snapshot.md).
   */
  databaseBack: Promise<void> | null;
}

/** While a start served from the snapshot waits for the database, how often it asks. */
const DATABASE_BACK_PROBE_MS = 1000;

/** Builds a ready server (database migrated) that has not started listening. */
export async function buildServer(config: Config, overrides: ContainerOverrides = {}): Promise<Server> {
  const logs = heldLogs();
  const container = createContainer(config, { outageLog: logs.outageLog, warn: logs.warn, ...overrides });
  let metricsServer: MetricsServer | null = null;
  try {
    const snapshot = await readyToServe(container);
    const metrics = metricsOf(config, container);
    // Published from the click path, not read from the rollups: live whatever STATS_FLUSH_INTERVAL_MS says.
    const live = new LiveClickTap(container.visits.feed);
    const app = await createHttpApp(
      container,
      httpOptionsOf(config, container, metrics, overrides),
      await redirectContextOf(config, container, live, snapshot),
      { ...container, web: await webOptionsOf(config, container, snapshot !== null) },
    );
    await app.ready();
    metricsServer = (await metrics?.listen((err) => app.log.error({ err }, 'the metrics server failed'))) ?? null;
    logs.toLogger(app.log);
    const jobs = startJobs(container, app, overrides);
    const startWarnings = startWarningsOf(config, container, app, snapshot !== null);
    const back = snapshot === null ? null : databaseBackOf(container);
    const release = async () => {
      back?.stop();
      await startWarnings.stop();
      live.close();
      // The jobs' rounds end first; then the webhooks' last clicks go to the outbox, the sink and
      // the writer write every click, and the lease ends (container.close).
      await jobs.stop();
      await metricsServer?.close();
      await container.close();
    };
    return {
      app,
      container,
      release,
      startClickRecovery: () => jobs.add(clickRecoveryJob(container.visits.clickLease)),
      metricsServer,
      startWarnings: startWarnings.warned,
      leftoversSwept: startWarnings.swept,
      databaseBack: back?.promise ?? null,
      close: async () => {
        await app.close();
        await release();
      },
    };
  } catch (error) {
    await metricsServer?.close();
    await container.close();
    throw error;
  }
}

/**
 * Outages and the seal key's warnings are told through the server's logger once it exists (the
 * container comes first): outages on standard error until then, the start's warnings held.
 */
function heldLogs() {
  let outageLog: OutageLog | null = null;
  let warnLog: ((line: string) => void) | null = null;
  const heldWarnings: string[] = [];
  const outage: OutageLog = (message, error) => (outageLog ?? consoleOutageLog)(message, error);
  return {
    outageLog: outage,
    warn: (line: string) => (warnLog ? warnLog(line) : heldWarnings.push(line)),
    toLogger(log: FastifyBaseLogger): void {
      outageLog = (message, error) => (error === undefined ? log.info(message) : log.warn({ err: error }, message));
      warnLog = (line) => log.warn(line);
      for (const line of heldWarnings.splice(0)) warnLog(line);
    },
  };
}

/**
 * What must hold before anything is served: the schema, the seal key, the invalidations, the
 * domain names. A database that cannot be reached, with a redirect snapshot that may be served,
 * is no failed start: the snapshot answers the visits (docs/design/snapshot.md), and it is returned.
 */
async function readyToServe(container: Container): Promise<LoadedSnapshot | null> {
  try {
    await container.migrate();
  } catch (error) {
    const snapshot = error instanceof UnavailableError ? await container.visits.snapshot?.reader.load() : null;
    if (!snapshot) throw error;
    // Visits of links not held are answered from the snapshot at once, not after a connect attempt each.
    container.visits.source.databaseFailed(error);
    await subscribedOrLater(container);
    return snapshot;
  }
  // Before anything is served: a SEAL_KEY that cannot open the sealed secrets fails the start
  // (SealKeyError), rather than every two-factor sign-in (docs/design/secrets.md).
  await container.sealKeys.ready();
  // Subscribed first, then the domain names read: a change made in between is not missed.
  await subscribedOrLater(container);
  // The redirect keys hosts by the custom domain names: they are known before the first visit.
  await container.visits.source.ready();
  return null;
}

/** A subscription that hangs (Redis slow to answer) holds the start for a moment at most. */
async function subscribedOrLater(container: Container): Promise<void> {
  await Promise.race([
    container.visits.subscribed,
    new Promise((resolve) => setTimeout(resolve, SUBSCRIBE_WAIT_MS).unref()),
  ]);
}

/** After a start served from the snapshot: resolves once the database answers a ping. */
function databaseBackOf(container: Container): { promise: Promise<void>; stop(): void } {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const promise = new Promise<void>((resolve) => {
    const probe = () => {
      timer = null;
      container.ping().then(resolve, () => {
        if (!stopped) timer = setTimeout(probe, DATABASE_BACK_PROBE_MS).unref();
      });
    };
    timer = setTimeout(probe, DATABASE_BACK_PROBE_MS).unref();
  });
  return {
    promise,
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/** What a visit is answered with: the link source, the visit's state, the click sink chain, the cookies' secrets. */
async function redirectContextOf(
  config: Config,
  container: Container,
  live: LiveClickTap,
  snapshot: LoadedSnapshot | null,
): Promise<RedirectContext> {
  const { visits } = container;
  // A start during an outage takes the visit's secrets from the snapshot: the database's, copied.
  const secret = async (name: 'unlock-cookie' | 'visitor-hash') =>
    snapshot === null
      ? sharedSecret(container.storage.db, name)
      : name === 'unlock-cookie'
        ? snapshot.secrets.unlockCookie
        : snapshot.secrets.visitorHash;
  const secure = new URL(config.APP_URL).protocol === 'https:';
  return {
    source: visits.source,
    cached: visits.source,
    certifiable: visits.source,
    countries: visits.countries,
    quota: visits.quota,
    rotation: visits.rotation,
    // The one sink chain (docs/design/clicks.md): the writer's sink, then the webhooks' batcher, then the live tally.
    sink: clickSinkChain(visits.sink, { webhooks: container.hooks.clicks, live }),
    attempts: visits.attempts,
    clock: container.clock,
    verifyPassword,
    unlock: new UnlockCookies(await secret('unlock-cookie'), secure),
    stamper: new ClickStamper(await secret('visitor-hash')),
    clickIds:
      snapshot === null
        ? await container.clickIds()
        : new ClickIds(snapshot.secrets.clickId, config.CLICK_RETENTION_DAYS),
    options: {
      redirectStatus: Number(config.REDIRECT_STATUS) as 301 | 302 | 307 | 308,
      consentMode: config.PIXEL_CONSENT,
      secureCookies: secure,
      appUrl: config.APP_URL,
      domainScheme: config.DOMAIN_SCHEME,
      appHosts: visits.appHosts,
    },
  };
}

/** Requests per window, counted in Redis across instances when it is set (0: off). */
function rateLimitOf(config: Config, container: Container, name: string, max: number, windowSeconds: number) {
  const { redis } = container.visits;
  const windowMs = windowSeconds * 1000;
  const limit: RateLimitSettings = { max, windowMs };
  if (redis && max > 0) limit.store = sharedRateLimitStore(redis, { prefix: config.REDIS_PREFIX, name, max, windowMs });
  return limit;
}

function httpOptionsOf(
  config: Config,
  container: Container,
  metrics: Metrics | null,
  overrides: ContainerOverrides,
): HttpOptions {
  const { tuning } = container;
  return {
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : { level: config.LOG_LEVEL, ...(overrides.logStream ? { stream: overrides.logStream } : {}) },
    bodyLimit: tuning.BODY_LIMIT_BYTES,
    bulkBodyLimit: tuning.BULK_BODY_LIMIT_BYTES,
    importMaxBytes: tuning.IMPORT_MAX_BYTES,
    trustProxy: config.TRUST_PROXY,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    rateLimit: rateLimitOf(config, container, 'api', config.API_RATE_LIMIT, tuning.API_RATE_WINDOW_SECONDS),
    metrics: metrics?.http,
  };
}

/**
 * `outage`: a start served from the snapshot. Its pages answer 503 (each needs the database), and
 * the process starts again whole once the database is back: its form and cookie secrets are
 * throwaway ones meanwhile, never the database's.
 */
async function webOptionsOf(config: Config, container: Container, outage: boolean): Promise<WebOptions> {
  const { visits, tuning } = container;
  const secure = new URL(config.APP_URL).protocol === 'https:';
  const sharedSecretOf = (db: Container['storage']['db'], name: string) =>
    outage ? Promise.resolve(randomToken(32)) : sharedSecret(db, name);
  return {
    outage,
    signup: config.SIGNUP,
    csrfSecret: await sharedSecretOf(container.storage.db, 'csrf'),
    imports: { maxBytes: tuning.IMPORT_MAX_BYTES, spoolMs: uploadWindowMs(config.REQUEST_TIMEOUT_MS) },
    countries: visits.countries,
    rateLimit: rateLimitOf(config, container, 'web', tuning.WEB_RATE_LIMIT, tuning.WEB_RATE_WINDOW_SECONDS),
    live: new LiveStreams(visits.feed, undefined, visits.sessionEnds),
    statsPasswords: {
      attempts: visits.limiter(STATS_PASSWORD_ATTEMPTS),
      cookies: new UnlockCookies(
        await sharedSecretOf(container.storage.db, 'stats-unlock-cookie'),
        secure,
        STATS_UNLOCK_SCOPE,
      ),
    },
  };
}

/**
 * The server's background jobs (the CLI runs none), every one on one scheduler
 * (src/app/background-jobs.ts lists them with their intervals); `stop` ends them and waits for the rounds under way.
 */
function startJobs(container: Container, app: FastifyInstance, overrides: ContainerOverrides): Scheduler {
  const jobs = new Scheduler((err, job) => {
    if (overrides.onError) return overrides.onError(err);
    // An outage is told by its own lines, when it begins and ends, not by each round it fails (docs/design/outages.md).
    if (!(err instanceof UnavailableError)) app.log.error({ err }, `${job.name} failed`);
  });
  for (const job of serverJobs(container)) jobs.add(job);
  jobs.start();
  return jobs;
}

/** The start's looks at stored data, in the background: links whose scheme is refused now, imports a killed instance left. */
function startWarningsOf(config: Config, container: Container, app: FastifyInstance, outage: boolean) {
  const warningsStop = new AbortController();
  // A start from the redirect snapshot has no database to look in; the start that follows its return looks.
  const warned = outage
    ? Promise.resolve()
    : warnOfRefusedSchemes(container.storage.db, config, app.log, warningsStop.signal).catch((err: unknown) =>
        app.log.error({ err }, 'looking for links with a scheme no longer allowed failed'),
      );
  // Never fails the start: a leftover that cannot be removed is left (docs/design/imports.md).
  const swept = sweepImportLeftovers().then((removed) => {
    if (removed.length > 0) app.log.info({ removed }, 'removed the uploads of imports a stopped instance left');
  });
  return {
    warned,
    swept,
    stop: async () => {
      warningsStop.abort();
      await warned;
      await swept;
    },
  };
}
