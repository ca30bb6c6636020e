import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { HealthChecks, HOUR_MS, retryDelay } from '../../core/health/health-checks.ts';
import type { DestinationChecker } from '../../core/health/ports.ts';
import { HttpDestinationChecker } from '../../adapters/health/http-destination-checker.ts';
import { SqlLinkHealthStore } from '../../adapters/storage/stores/link-health-store.ts';
import { unitOfWorkOn } from '../../adapters/storage/transactions.ts';
import type { WebhookRuntime } from '../webhook-runtime.ts';
import type { Base } from './base.ts';

/** Checks asked for at once (the API's POST /links/{id}/check, the web's Check now), per key or person. */
const CHECK_NOW_LIMIT = { name: 'link-checks', max: 30, windowSeconds: 3600 };
/** A claimed link stays this instance's this long: past any round, however many links share a host. */
const LEASE_MS = 30 * 60_000;

export interface HealthArea {
  health: HealthChecks;
  /** Scheduled checks are on (HEALTH_CHECK_INTERVAL_HOURS above 0). */
  healthScheduled: boolean;
  closeHealth(): Promise<void>;
}

/** Destination checks (docs/design/health.md): a result and its webhook event commit together. */
export function healthOf(base: Base, deps: { hooks: WebhookRuntime; checker?: DestinationChecker | undefined }) {
  const { config, tuning, storage, clock, visits } = base;
  const checker =
    deps.checker ??
    new HttpDestinationChecker({
      allowPrivate: config.OUTBOUND_ALLOW_PRIVATE,
      appUrl: config.APP_URL,
      timeoutMs: tuning.HEALTH_CHECK_TIMEOUT_MS,
      hostSpacingMs: tuning.HEALTH_HOST_SPACING_MS,
      maxInFlight: tuning.HEALTH_IN_FLIGHT,
    });
  const store = new SqlLinkHealthStore(storage.db, storage.engine);
  const health = new HealthChecks({
    store,
    checker,
    events: deps.hooks.healthEventsOn(storage.db, (task) => task()),
    clock,
    policy: {
      okIntervalMs: Math.max(1, config.HEALTH_CHECK_INTERVAL_HOURS) * HOUR_MS,
      brokenIntervalMs: HOUR_MS,
      retryDelayMs: retryDelay(tuning.HEALTH_RETRY_MS),
      leaseMs: LEASE_MS,
    },
    holder: randomUUID(),
    pause: (ms, signal) => sleep(ms, undefined, { ref: false, signal }),
    limiter: visits.limiter(CHECK_NOW_LIMIT),
    unitOfWork: unitOfWorkOn(storage.db, (trx, afterCommit) => ({
      store: new SqlLinkHealthStore(trx, storage.engine),
      events: deps.hooks.healthEventsOn(trx, afterCommit),
    })),
  });
  return {
    health,
    healthScheduled: config.HEALTH_CHECK_INTERVAL_HOURS > 0,
    closeHealth: async () => {
      if (checker instanceof HttpDestinationChecker) await checker.close();
    },
  } satisfies HealthArea;
}
