import type { Job } from '../adapters/shared/scheduler.ts';
import type { ClickLease } from '../adapters/clicks/recovery/click-lease.ts';
import type { Container } from './container.ts';

// Every background loop of linkpix, with its interval: the server's jobs below, run by the one
// Scheduler a server holds (src/app/server.ts starts them, its release() stops them before the last
// clicks are written: the stop aborts the signal every round is given, and the webhook deliveries,
// the destination checks and the digest end early on it), and one the click writer runs on a
// Scheduler of its own thread:
//
//   job                             interval                                     first round
//   webhook deliveries              WEBHOOK_POLL_MS; again at once when full     after an interval; woken by a commit
//   link.clicked batches            WEBHOOK_CLICKS_MS (subscribers re-read 10 s) after an interval
//   link.expired sweep              WEBHOOK_EXPIRY_SWEEP_MS; again when full     after an interval
//   destination checks              HEALTH_ROUND_MS; again when full (off at     after an interval
//                                   HEALTH_CHECK_INTERVAL_HOURS=0)
//   scheduled link changes          SCHEDULE_POLL_MS (30 s); again when full     after an interval
//   retention (clicks, audit log)   RETENTION: hourly                            a minute after start
//   the broken-links digest         DIGEST: hourly (mail once a UTC day; off     a minute after start
//                                   without SMTP_URL)
//   folding the monthly statistics  FOLDING: 5 s                                 a minute after start
//   expired kept import files       KEPT_IMPORTS: 10 min                         a minute after start
//   settling link click counts      CLICK_COUNT_SETTLE_INTERVAL_MS (PostgreSQL)  after an interval
//   the redirect snapshot           SNAPSHOT_ROUND_MS (15 s); writes only when   after an interval
//                                   something changed
//   click recovery (the lease)      a third of CLICK_WRITER_LEASE_MS             at once (main.ts, not in tests)
//   click writer idle checkpoint    CLICK_FLUSH_INTERVAL_MS (SQLite's thread)    adapters/clicks/writer/click-writer.ts
//
// Intervals are counted from the end of a round: rounds of a job never overlap. What is not here
// is no loop: timers of one event (a batch due, a window due, a hand-off, a live tally), retries
// until something answers (Redis's first subscription), and timers of one request or one import
// (a live stream's heartbeat, an import's lease renewal), which end with it.

/** Raw clicks past CLICK_RETENTION_DAYS, and audit entries past their age, are pruned a minute after start, then hourly. */
const RETENTION = { firstDelayMs: 60_000, intervalMs: 3_600_000 };
/** Web dry runs' files past their hour are removed (an import takes its file as it starts: docs/design/imports.md). */
const KEPT_IMPORTS = { firstDelayMs: 60_000, intervalMs: 600_000 };
/** The broken-links digest's round: a person's day is claimed by the first round past midnight UTC (docs/design/health.md). */
const DIGEST = { firstDelayMs: 60_000, intervalMs: 3_600_000 };
/** Daily statistics of finished months are folded into monthly ones a round at a time (docs/design/statistics.md). */
const FOLDING = { firstDelayMs: 60_000, intervalMs: 5_000 };
/** A settle round of the links' click counts gives way after this; the rest waits for the next. */
const SETTLE_ROUND_MS = 1000;
/** Links a destination-check round claims: at one a second per host, a round of one host's links ends well inside the lease. */
const HEALTH_BATCH = 50;
/** The clicks batched for link.clicked webhooks become one delivery a webhook this often. */
const WEBHOOK_CLICKS_MS = 1000;

/** Scheduled link changes a round applies; a full round is followed by another at once. */
const SCHEDULES_PER_ROUND = 100;

/** What the server's jobs run. */
export type JobParts = Pick<
  Container,
  | 'tuning'
  | 'statsMaintenance'
  | 'audit'
  | 'linkClickCounts'
  | 'hooks'
  | 'visits'
  | 'health'
  | 'healthScheduled'
  | 'linkSchedules'
  | 'healthDigests'
  | 'keptImports'
  | 'clock'
>;

/** The server's jobs, each with its interval (docs/design/event-loop.md). */
export function serverJobs(parts: JobParts): Job[] {
  const { tuning, statsMaintenance, audit, linkClickCounts, hooks, visits, health, healthScheduled, linkSchedules } =
    parts;
  const { healthDigests, keptImports, clock } = parts;
  const jobs: Job[] = [
    {
      name: 'webhook deliveries',
      intervalMs: tuning.WEBHOOK_POLL_MS,
      round: hooks.rounds.deliveries,
      wake: hooks.deliveriesDue,
    },
    { name: 'link.clicked webhook batches', intervalMs: WEBHOOK_CLICKS_MS, round: hooks.rounds.clicks },
    { name: 'the link.expired sweep', intervalMs: tuning.WEBHOOK_EXPIRY_SWEEP_MS, round: hooks.rounds.expiry },
    {
      name: 'scheduled link changes',
      intervalMs: tuning.SCHEDULE_POLL_MS,
      round: async () => (await linkSchedules.applyDue(SCHEDULES_PER_ROUND)) === SCHEDULES_PER_ROUND,
    },
    {
      name: 'retention (clicks, audit log)',
      ...RETENTION,
      round: async () => {
        // The audit log's age limit holds even when the clicks' pruning fails.
        try {
          await statsMaintenance.prune();
        } finally {
          await audit.prune();
        }
      },
    },
    {
      name: 'expired kept import files',
      ...KEPT_IMPORTS,
      round: async () => void (await keptImports.removeExpired(clock.now())),
    },
    {
      name: 'folding the monthly statistics',
      ...FOLDING,
      round: async () => void (await statsMaintenance.foldMonths()),
    },
  ];
  const { snapshot } = visits;
  if (snapshot) {
    jobs.push({
      name: 'the redirect snapshot',
      intervalMs: tuning.SNAPSHOT_ROUND_MS,
      round: () => snapshot.writer.round(),
    });
  }
  if (healthScheduled)
    jobs.push({
      name: 'destination checks',
      intervalMs: tuning.HEALTH_ROUND_MS,
      round: (stop) => health.round(HEALTH_BATCH, stop),
    });
  if (healthDigests)
    jobs.push({
      name: 'the broken-links digest',
      ...DIGEST,
      round: async (stop) => void (await healthDigests.round(stop)),
    });
  if (linkClickCounts) {
    jobs.push({
      name: "settling the links' click counts",
      intervalMs: tuning.CLICK_COUNT_SETTLE_INTERVAL_MS,
      round: async () => void (await linkClickCounts.settle(SETTLE_ROUND_MS)),
    });
  }
  return jobs;
}

/**
 * This process's lease on its click batches, and the roll-up of dead writers' batches: started by
 * main.ts before the writer thread (a server a test builds takes no lease), first round at once.
 */
export function clickRecoveryJob(lease: ClickLease): Job {
  return { name: 'click recovery', firstDelayMs: 0, intervalMs: lease.roundMs, round: () => lease.round() };
}
