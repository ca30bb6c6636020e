import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import type { ClickQuota, ClickSink, RotationCursor } from '../core/clicks/ports.ts';
import type { AttemptLimiter, AttemptPolicy } from '../core/shared/attempt-limiter.ts';
import { PASSWORD_ATTEMPTS } from '../core/redirect/attempt-limiter.ts';
import type { RedirectInvalidation } from '../core/redirect/redirect-events.ts';
import { CachedRedirectSource } from '../adapters/cache/cached-redirect-source.ts';
import { warmUp } from '../adapters/cache/warm-up.ts';
import { ColumnarClickSink } from '../adapters/clicks/sink/columnar-click-sink.ts';
import { CountryLookup } from '../adapters/geo/country-lookup.ts';
import { sqlitePath, type Storage } from '../adapters/storage/connect.ts';
import { WorkerClickStore } from '../adapters/clicks/thread/worker-click-store.ts';
import type { WriterData } from '../adapters/clicks/thread/worker-messages.ts';
import { InProcessClickWriter } from '../adapters/clicks/thread/in-process-click-writer.ts';
import { SqlClickRecovery } from '../adapters/clicks/recovery/click-recovery.ts';
import { ClickLease } from '../adapters/clicks/recovery/click-lease.ts';
import { SqlRedirectLinkSource } from '../adapters/storage/stores/redirect-link-source.ts';
import { MemoryAttemptLimiter } from '../adapters/state/memory-attempt-limiter.ts';
import { MemoryClickQuota } from '../adapters/state/memory-click-quota.ts';
import { MemoryRotationCursor } from '../adapters/state/memory-rotation-cursor.ts';
import { RedisAttemptLimiter } from '../adapters/state/redis-attempt-limiter.ts';
import { RedisClickQuota } from '../adapters/state/redis-click-quota.ts';
import { checkRunIdOnConnect } from '../adapters/state/run-id-check.ts';
import { RedisInvalidationBus } from '../adapters/state/redis-invalidation.ts';
import { RedisRotationCursor } from '../adapters/state/redis-rotation-cursor.ts';
import { OutageReporter, type OutageLog } from '../adapters/shared/outage-reporter.ts';
import { redisErrors, watchRedis } from '../adapters/state/redis-watch.ts';
import { RedisPresence } from '../adapters/state/redis-presence.ts';
import { FallbackAttemptLimiter } from '../adapters/state/fallback-attempt-limiter.ts';
import { FallbackClickQuota } from '../adapters/state/fallback-click-quota.ts';
import { FallbackRotationCursor } from '../adapters/state/fallback-rotation-cursor.ts';
import { SqlClickClaimStore } from '../adapters/storage/stores/click-claim-store.ts';
import { SqlRotationStore } from '../adapters/storage/stores/rotation-store.ts';
import { ClickMeter } from '../adapters/metrics/click-meter.ts';
import type { ClickFeed } from '../core/live/click-feed.ts';
import { MemoryClickFeed } from '../adapters/live/memory-click-feed.ts';
import { RedisClickFeed } from '../adapters/live/redis-click-feed.ts';
import type { SessionEnds } from '../core/live/session-ends.ts';
import { MemorySessionEnds } from '../adapters/live/memory-session-ends.ts';
import { RedisSessionEnds } from '../adapters/live/redis-session-ends.ts';
import { sharedSecret } from '../adapters/storage/stores/secret-store.ts';
import { SnapshotReader } from '../adapters/snapshot/snapshot-reader.ts';
import { SnapshotWriter } from '../adapters/snapshot/snapshot-writer.ts';
import { snapshotKeyId, snapshotOrigin, type SnapshotSecrets } from '../adapters/snapshot/snapshot-format.ts';
import type { Config } from './config.ts';
import type { Tuning } from './tuning.ts';

/** Everything a visit uses besides the database reads: state that Redis takes over when set. */
export interface VisitRuntime {
  source: CachedRedirectSource;
  /** The redirect snapshot (SNAPSHOT_PATH; null when off): its writer's job and its reader (docs/design/snapshot.md). */
  snapshot: { writer: SnapshotWriter; reader: SnapshotReader } | null;
  countries: CountryLookup;
  quota: ClickQuota;
  rotation: RotationCursor;
  /** Guesses of a link's password. */
  attempts: AttemptLimiter;
  /** Another limiter of guesses (sign-ins), in the same place as the password's: Redis when set. */
  limiter(policy: AttemptPolicy): AttemptLimiter;
  /** pending: clicks recorded here and not yet handed on (logged at a stop). */
  sink: ClickSink & { readonly pending: number };
  /** Clicks recorded, written and dropped, and the writes' durations (GET /metrics). */
  clickMeter: ClickMeter;
  /** Redis's connection losses and returns; null without Redis. */
  redisOutage: OutageReporter | null;
  /** What API writes call so every instance drops stale cache entries. */
  invalidation: RedirectInvalidation;
  appHosts: ReadonlySet<string>;
  /**
   * Settles once the first subscription to other instances' invalidations has been tried (at
   * once without Redis). Serving only after it, an instance misses no change published after
   * its first visit; a Redis that is away fails the try and does not hold the start.
   */
  subscribed: Promise<void>;
  /**
   * Loads the most visited links into the cache (LINK_CACHE_WARM), in batches; resolves to how
   * many were stored. Started after the server listens, never awaited by the start; close() stops it.
   */
  warmUp(): Promise<number>;
  /**
   * This process's lease on its click batches and the roll-up of the batches of writers that
   * died (CLICK_WRITER_LEASE_MS): its round runs on the server's scheduler
   * (src/app/background-jobs.ts), not in tools that never serve a visit; close() ends the lease
   * after the last clicks are written.
   */
  clickLease: ClickLease;
  /**
   * Starts the click writer thread now (it starts with the first click otherwise) and resolves
   * once it can write: called by the server before it listens, not by tools that never serve a
   * visit (docs/design/clicks.md).
   */
  startClickWriter(): Promise<void>;
  /** Clicks as they happen, per account, for the live pages: across instances through Redis when set. */
  feed: ClickFeed;
  /**
   * Word of sessions ended, so that live streams end at once: across instances through Redis when set
   * (docs/design/statistics.md).
   */
  sessionEnds: SessionEnds;
  /** The shared state's connection (the API rate limit counts there too), null without REDIS_URL. */
  redis: Redis | null;
  /** Flushes every buffered click and closes the shared-state connections. */
  close(): Promise<void>;
}

const HANDOFF_MS = 50;
const QUIT_WAIT_MS = 1000;
const SUBSCRIBE_RETRY_MS = 5000;
const RECONNECT_MAX_MS = 1000;
// Beyond a flush interval, time for the batch's write to reach the database.
const GRACE_WRITE_MS = 1000;

/** What the visit runtime reports to, and where its writer thread finds PostgreSQL's tables. */
export interface VisitRuntimeHooks {
  /** Faults worth an error line each. */
  onError: (e: unknown) => void;
  /** A dependency went away or came back (once per outage, however many retries fail meanwhile). */
  outageLog: OutageLog;
  /** The PostgreSQL schema the server's storage uses, when not the default (tests and benches). */
  pgSchema?: string | undefined;
}

export function createVisitRuntime(
  config: Config,
  tuning: Tuning,
  storage: Storage,
  hooks: VisitRuntimeHooks,
): VisitRuntime {
  const { onError, outageLog } = hooks;
  const { appHosts, reads, source, snapshot } = linkSourceOf(config, tuning, storage, hooks);
  const clicks = clickPipelineOf(config, tuning, storage, hooks);
  const countries = CountryLookup.open(config.GEOIP_DATABASE || undefined);
  const stopping = new AbortController();
  const warm = () =>
    warmUp(source, reads, { count: Math.min(tuning.LINK_CACHE_WARM, tuning.LINK_CACHE_SIZE), signal: stopping.signal });
  const common = {
    source,
    snapshot,
    countries,
    sink: clicks.sink,
    appHosts,
    warmUp: warm,
    clickMeter: clicks.meter,
    clickLease: clicks.lease,
    startClickWriter: () => clicks.writer.open(),
  };

  if (!config.REDIS_URL) {
    return {
      ...common,
      quota: new MemoryClickQuota(),
      rotation: new MemoryRotationCursor(),
      attempts: new MemoryAttemptLimiter(PASSWORD_ATTEMPTS),
      limiter: (policy) => new MemoryAttemptLimiter(policy),
      invalidation: source,
      feed: new MemoryClickFeed(onError),
      sessionEnds: new MemorySessionEnds(onError),
      redis: null,
      redisOutage: null,
      subscribed: Promise.resolve(),
      close: () => {
        stopping.abort();
        return clicks.close();
      },
    };
  }
  const shared = redisStateOf(config, storage, source, config.REDIS_URL, { onError, outageLog });
  return {
    ...common,
    ...shared.state,
    close: () => {
      stopping.abort();
      return shared.closeAfter(clicks.close);
    },
  };
}

/** The redirect's reads of links, cached on this instance (LINK_CACHE_*), keyed by host. */
function linkSourceOf(config: Config, tuning: Tuning, storage: Storage, { onError, outageLog }: VisitRuntimeHooks) {
  const appHost = new URL(config.APP_URL).hostname.toLowerCase();
  const appHosts = new Set([appHost]);
  const reads = new SqlRedirectLinkSource(storage.db, appHosts, storage.engine);
  const snapshot = snapshotOf(config, storage, reads, appHost, outageLog);
  const source = new CachedRedirectSource(reads, {
    ttlMs: tuning.LINK_CACHE_TTL_MS,
    missTtlMs: Math.min(tuning.LINK_CACHE_TTL_MS, 2000),
    maxEntries: tuning.LINK_CACHE_SIZE,
    appHost,
    onError,
    onStale: (message) => outageLog(message),
    ...(snapshot ? { snapshot: snapshot.reader, onChange: () => snapshot.writer.changed() } : {}),
  });
  return { appHosts, reads, source, snapshot };
}

/**
 * The redirect snapshot (docs/design/snapshot.md): written from the database's reads whenever the
 * cache is told of a change, read only while the database cannot answer. Refusals are told as an
 * outage's lines are.
 */
function snapshotOf(
  config: Config,
  storage: Storage,
  reads: SqlRedirectLinkSource,
  appHost: string,
  outageLog: OutageLog,
): { writer: SnapshotWriter; reader: SnapshotReader } | null {
  if (config.SNAPSHOT_PATH === '') return null;
  const origin = snapshotOrigin(config.APP_URL);
  let keyId: string | null = null;
  const secrets = async (): Promise<SnapshotSecrets> => {
    const read = {
      unlockCookie: await sharedSecret(storage.db, 'unlock-cookie'),
      visitorHash: await sharedSecret(storage.db, 'visitor-hash'),
      clickId: await sharedSecret(storage.db, 'click-id'),
    };
    keyId = snapshotKeyId(read);
    return read;
  };
  const reader = new SnapshotReader({
    path: config.SNAPSHOT_PATH,
    origin,
    appHost,
    expectedKeyId: () => keyId,
    onRefused: (reason) => outageLog(reason),
  });
  const writer = new SnapshotWriter(reads, {
    path: config.SNAPSHOT_PATH,
    origin,
    secrets,
    // The file in memory, if loaded, is the old one now.
    onWritten: () => reader.discard(),
  });
  return { writer, reader };
}

/** The click pipeline (docs/design/clicks.md): the sink, the writer, the lease (recovery of a stopped writer's batches). */
function clickPipelineOf(
  config: Config,
  tuning: Tuning,
  storage: Storage,
  { onError, outageLog, pgSchema }: VisitRuntimeHooks,
) {
  // One click pipeline: a visit's click is encoded into columns on this thread
  // (ColumnarClickSink) and handed to the writer thread, whose connection of its own writes it
  // every CLICK_FLUSH_INTERVAL_MS: SQLite's writes would block the redirect's event loop, and
  // PostgreSQL's, with its rollup window, took the redirect's thread between visits
  // (docs/design/clicks.md). An in-memory database exists only on this connection: the same writer runs here.
  const clickMeter = new ClickMeter();
  // Batches are recorded under this writer's lease until their rollups are written.
  const owner = `${hostname().slice(0, 32)}:${process.pid}:${randomBytes(6).toString('hex')}`;
  const writer = clickWriter(config, tuning, storage, { owner, pgSchema, onError, outageLog, meter: clickMeter });
  const sink = new ColumnarClickSink(writer, {
    intervalMs: Math.min(HANDOFF_MS, config.CLICK_FLUSH_INTERVAL_MS),
    maxBatch: tuning.CLICK_BATCH_SIZE,
    meter: clickMeter,
  });
  // On SQLite's writer thread the links' counters wait with the rollups: recovered too.
  const lease = new ClickLease(new SqlClickRecovery(storage.db, storage.engine), {
    owner,
    leaseMs: tuning.CLICK_WRITER_LEASE_MS,
    onError,
    onRecovered: ({ batches, clicks }) =>
      outageLog(`rolled up the statistics of ${clicks} clicks (${batches} batches) a stopped instance had written`),
  });
  const closeSink = async () => {
    // A write that fails here is tried again by the thread's own stop (PostgreSQL's retries).
    await sink.close().catch(onError);
    await writer.close();
    await lease.release();
  };
  return { meter: clickMeter, writer, sink, lease, close: closeSink };
}

/**
 * The visit's state shared through Redis: caps, rotation, guesses, invalidations, the live
 * feed and session ends, each falling back to the database or memory while Redis is away.
 */
function redisStateOf(
  config: Config,
  storage: Storage,
  source: CachedRedirectSource,
  url: string,
  { onError, outageLog }: Pick<VisitRuntimeHooks, 'onError' | 'outageLog'>,
) {
  // Reconnection attempts at most a second apart: the state held in the database meanwhile goes
  // back to Redis soon after it returns. Auto-pipelining: the commands of one turn of the event
  // loop (the rotations and claims of every visit read in it) leave in one write and their
  // answers come back in one read, rather than a system call each way per visit (and per visit
  // on Redis's side too), which cost a rotating visit more than its own answer.
  const redis = new Redis(url, {
    lazyConnect: false,
    maxRetriesPerRequest: 2,
    retryStrategy: (times) => Math.min(times * 50, RECONNECT_MAX_MS),
    enableAutoPipelining: true,
  });
  const redisOutage = new OutageReporter('Redis', outageLog);
  watchRedis(redis, redisOutage);
  const presence = new RedisPresence(redis);
  const prefix = config.REDIS_PREFIX;
  const redisError = redisErrors(redisOutage, onError);
  const bus = new RedisInvalidationBus(redis, { onError: redisError, prefix });
  const subscription = subscribeUntilHeld(bus, source, redisError);
  const feed = new RedisClickFeed(redis, { prefix, onError: redisError });
  const sessionEnds = new RedisSessionEnds(redis, { prefix, onError: redisError });
  const redisQuota = new RedisClickQuota(redis, { prefix });
  checkRunIdOnConnect(redis, redisQuota, onError);
  const limiter = (policy: AttemptPolicy): AttemptLimiter =>
    new FallbackAttemptLimiter(
      new RedisAttemptLimiter(redis, policy, { prefix }),
      new MemoryAttemptLimiter(policy),
      presence,
    );
  const state = {
    // Without Redis, caps and rotation are counted in the database and guesses in memory.
    quota: new FallbackClickQuota(redisQuota, new SqlClickClaimStore(storage.db, storage.engine), presence, {
      graceMs: config.CLICK_FLUSH_INTERVAL_MS + GRACE_WRITE_MS,
    }),
    rotation: new FallbackRotationCursor(
      new RedisRotationCursor(redis, { prefix }),
      new SqlRotationStore(storage.db),
      presence,
    ),
    attempts: limiter(PASSWORD_ATTEMPTS),
    limiter,
    invalidation: bus,
    feed,
    sessionEnds,
    redis,
    redisOutage,
    subscribed: subscription.subscribed,
  };
  /** Stops trying to subscribe, runs `first` (the clicks' last writes), then closes the connections. */
  const closeAfter = async (first: () => Promise<void>) => {
    subscription.stop();
    await first();
    await bus.close();
    await feed.close();
    await sessionEnds.close();
    // QUIT is answered after every command sent before it, so the last invalidations (a CLI
    // command's, say) reach the other instances; a Redis that is away gets a second, not a hang.
    const quit = redis.quit().catch(() => undefined);
    await Promise.race([quit, new Promise((resolve) => setTimeout(resolve, QUIT_WAIT_MS).unref())]);
    redis.disconnect();
  };
  return { state, closeAfter };
}

/** Redis may be away at start: tried again until the subscription holds (ioredis keeps it after). */
function subscribeUntilHeld(
  bus: RedisInvalidationBus,
  source: CachedRedirectSource,
  onError: (error: unknown) => void,
): { subscribed: Promise<void>; stop(): void } {
  let stopped = false;
  let tried!: () => void;
  const subscribed = new Promise<void>((resolve) => (tried = resolve));
  const subscribe = (): void => {
    bus.subscribe(source).then(tried, (error: unknown) => {
      tried();
      onError(error);
      if (!stopped) setTimeout(subscribe, SUBSCRIBE_RETRY_MS).unref();
    });
  };
  subscribe();
  return {
    subscribed,
    stop: () => {
      stopped = true;
    },
  };
}

/** The click writer: a thread for the database, or this process for an in-memory SQLite database, which only this connection sees. */
function clickWriter(
  config: Config,
  tuning: Tuning,
  storage: Storage,
  {
    owner,
    pgSchema,
    onError,
    outageLog,
    meter,
  }: {
    owner: string;
    pgSchema: string | undefined;
    onError: (e: unknown) => void;
    outageLog: OutageLog;
    meter: ClickMeter;
  },
): WorkerClickStore | InProcessClickWriter {
  const timing = {
    writeIntervalMs: config.CLICK_FLUSH_INTERVAL_MS,
    maxBuffered: tuning.CLICK_BUFFER_MAX,
  };
  if (storage.sqlite && sqlitePath(config.DATABASE_URL) === ':memory:') {
    return InProcessClickWriter.over(storage, {
      ...timing,
      owner,
      windowMs: tuning.STATS_FLUSH_INTERVAL_MS,
      onError,
      onResumed: (message) => outageLog(message),
      meter,
    });
  }
  const data: WriterData = {
    engine: storage.engine,
    databaseUrl: config.DATABASE_URL,
    schema: storage.engine === 'postgres' ? pgSchema : undefined,
    ...timing,
    rollupIntervalMs: tuning.STATS_FLUSH_INTERVAL_MS,
    owner,
    // Beside the snapshot and named after it: one spool per instance (docs/design/clicks.md, "The spool").
    spoolDir: config.SNAPSHOT_PATH === '' ? undefined : `${config.SNAPSHOT_PATH}.click-spool`,
  };
  // SQLite: its connection commits often, on a thread that serves no request: it checkpoints the
  // WAL, never a commit of the redirect's thread (docs/design/clicks.md).
  return new WorkerClickStore(data, {
    onError,
    meter,
    onResumed: (message) => outageLog(message),
    onRunning: (running) => storage.checkpointOnCommit(!running),
  });
}
