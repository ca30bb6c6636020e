import { ConfigError } from './config.ts';

/**
 * Values no operator has a reason to turn, named once here: each with its value and the bounds a
 * test may move it within. Why each is what it is: docs/design/settings.md. Tests move them
 * through buildServer's overrides (`tuning`) or, for the processes they start, LINKPIX_TEST_TUNING.
 */
interface Constant {
  value: number;
  /** The range a test's value must be in: the values the code is built to work with, so a test never runs a system no one could. */
  min: number;
  max: number;
}

const TUNING_TABLE = {
  // Request limits (docs/api.md §1–2).
  API_RATE_WINDOW_SECONDS: { value: 60, min: 1, max: 86_400 },
  WEB_RATE_LIMIT: { value: 600, min: 0, max: 1_000_000 },
  WEB_RATE_WINDOW_SECONDS: { value: 60, min: 1, max: 86_400 },
  BODY_LIMIT_BYTES: { value: 65_536, min: 1024, max: 10_485_760 },
  BULK_BODY_LIMIT_BYTES: { value: 4_194_304, min: 1024, max: 67_108_864 },
  // Imports (docs/design/imports.md).
  IMPORT_MAX_BYTES: { value: 52_428_800, min: 1024, max: 1_073_741_824 },
  IMPORT_CONCURRENCY: { value: 2, min: 1, max: 64 },
  // Outbound requests.
  DOMAIN_VERIFICATION_TIMEOUT_MS: { value: 5000, min: 100, max: 30_000 },
  TITLE_FETCH_TIMEOUT_MS: { value: 5000, min: 100, max: 60_000 },
  WEBHOOK_TIMEOUT_MS: { value: 10_000, min: 100, max: 120_000 },
  // Destination checks (docs/design/health.md): one request's budget, the least gap between two
  // requests to a host, the pause before a failed check's retry (1 to 2 times this), requests in
  // flight, and how often a round looks for links due.
  HEALTH_CHECK_TIMEOUT_MS: { value: 10_000, min: 50, max: 60_000 },
  HEALTH_HOST_SPACING_MS: { value: 1000, min: 0, max: 60_000 },
  HEALTH_RETRY_MS: { value: 1000, min: 0, max: 60_000 },
  HEALTH_IN_FLIGHT: { value: 8, min: 1, max: 256 },
  HEALTH_ROUND_MS: { value: 60_000, min: 50, max: 3_600_000 },
  // Webhook loops; the lease outlives a delivery's timeout.
  WEBHOOK_POLL_MS: { value: 1000, min: 50, max: 60_000 },
  WEBHOOK_EXPIRY_SWEEP_MS: { value: 10_000, min: 50, max: 3_600_000 },
  WEBHOOK_LEASE_MS: { value: 60_000, min: 1000, max: 3_600_000 },
  // Scheduled link changes are applied within 60 s of their time (docs/design/history.md).
  SCHEDULE_POLL_MS: { value: 30_000, min: 50, max: 30_000 },
  // QR codes drawn off the event loop.
  QR_THREADS: { value: 1, min: 1, max: 64 },
  QR_QUEUE_MAX: { value: 32, min: 0, max: 10_000 },
  QR_CACHE_BYTES: { value: 8_388_608, min: 0, max: 1_073_741_824 },
  // Abuse budgets of sign-ups and invitations (0: that limit off).
  SIGNUP_LIMIT_PER_ADDRESS: { value: 10, min: 0, max: 1_000_000 },
  SIGNUP_LIMIT_PER_EMAIL: { value: 5, min: 0, max: 1_000_000 },
  SIGNUP_LIMIT_WINDOW_SECONDS: { value: 3600, min: 1, max: 604_800 },
  INVITE_LIMIT_PER_INVITER: { value: 20, min: 0, max: 1_000_000 },
  INVITE_LIMIT_PER_WORKSPACE: { value: 50, min: 0, max: 1_000_000 },
  INVITE_LIMIT_WINDOW_SECONDS: { value: 3600, min: 1, max: 604_800 },
  // The redirect's link cache.
  LINK_CACHE_TTL_MS: { value: 300_000, min: 0, max: 3_600_000 },
  LINK_CACHE_SIZE: { value: 100_000, min: 0, max: 10_000_000 },
  LINK_CACHE_WARM: { value: 10_000, min: 0, max: 10_000_000 },
  // The redirect snapshot's rounds: a change is in the file within a minute (docs/design/snapshot.md).
  SNAPSHOT_ROUND_MS: { value: 15_000, min: 50, max: 30_000 },
  // The click pipeline.
  CLICK_BATCH_SIZE: { value: 1000, min: 1, max: 50_000 },
  CLICK_BUFFER_MAX: { value: 100_000, min: 1000, max: 10_000_000 },
  CLICK_WRITER_LEASE_MS: { value: 30_000, min: 1000, max: 3_600_000 },
  STATS_FLUSH_INTERVAL_MS: { value: 15_000, min: 0, max: 600_000 },
  CLICK_COUNT_SETTLE_INTERVAL_MS: { value: 60_000, min: 1000, max: 86_400_000 },
  // Defaults of records.
  DEFAULT_STATS_PRIVACY: { value: 1, min: 0, max: 1 },
  AUDIT_RETENTION_DAYS: { value: 365, min: 1, max: 36_500 },
} satisfies Record<string, Constant>;

export type TuningName = keyof typeof TUNING_TABLE;
export type Tuning = Readonly<Record<TuningName, number>>;

/** Every constant at its value. */
export const TUNING: Tuning = Object.fromEntries(
  Object.entries(TUNING_TABLE).map(([name, c]) => [name, c.value]),
) as Record<TuningName, number>;

/** The constants with a test's values over them. */
export function tuningOf(over: Partial<Tuning> = {}): Tuning {
  return { ...TUNING, ...over };
}

/** The test-only channel of the processes tests start: a JSON object of constants' names and values. */
export const TEST_TUNING_VARIABLE = 'LINKPIX_TEST_TUNING';

/**
 * LINKPIX_TEST_TUNING, read only when NODE_ENV=test (an operator's environment never moves a
 * constant); every name and value checked, all wrong ones reported at once.
 */
export function testTuning(env: Record<string, string | undefined>): Partial<Tuning> {
  const raw = env[TEST_TUNING_VARIABLE];
  if (raw === undefined || raw.trim() === '' || env.NODE_ENV !== 'test') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(
      `Invalid configuration:\n  ${TEST_TUNING_VARIABLE}: must be a JSON object of constants and their values`,
    );
  }
  const out: Partial<Record<TuningName, number>> = {};
  const problems: string[] = [];
  for (const [name, value] of Object.entries(parsed)) {
    const constant = Object.hasOwn(TUNING_TABLE, name) ? TUNING_TABLE[name as TuningName] : undefined;
    if (constant === undefined) problems.push(`${TEST_TUNING_VARIABLE}.${name}: no such constant`);
    else if (typeof value !== 'number' || !Number.isInteger(value) || value < constant.min || value > constant.max) {
      problems.push(
        `${TEST_TUNING_VARIABLE}.${name}=${JSON.stringify(value)}: must be an integer between ${constant.min} and ${constant.max}`,
      );
    } else out[name as TuningName] = value;
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return out;
}
