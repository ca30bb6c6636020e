import type { AttemptLimiter } from '../shared/attempt-limiter.ts';
import type { Clock } from '../shared/clock.ts';
import { TooManyAttemptsError } from '../shared/errors.ts';
import { noUnitOfWork, type UnitOfWork } from '../shared/unit-of-work.ts';
import { classify, type Verdict } from './classify.ts';
import { UNKNOWN_HEALTH, type HealthEvent, type LinkHealth } from './health.ts';
import type { ClaimedLink, DestinationChecker, LinkHealthStore } from './ports.ts';

/** Tells a change of a link's health (the webhooks' link.broken and link.recovered). */
export interface HealthEvents {
  changed(accountId: number, event: HealthEvent, linkId: number): Promise<void>;
}

/** What a result is written through: its record and its event commit together. */
export interface HealthUnitPorts {
  store: Pick<LinkHealthStore, 'record'>;
  events: HealthEvents;
}

export interface HealthPolicy {
  /** A working link is checked again after this (HEALTH_CHECK_INTERVAL_HOURS). */
  okIntervalMs: number;
  /** A broken link is checked again after this. */
  brokenIntervalMs: number;
  /** The pause before a failed check's one retry. */
  retryDelayMs: () => number;
  /** How long a claimed link is left to this instance: longer than any round takes. */
  leaseMs: number;
}

export const HOUR_MS = 3_600_000;

/** The retry's pause: 1–2 s, spread so that the retries of a round do not come back together. */
export const retryDelay =
  (minMs = 1000, random: () => number = Math.random): (() => number) =>
  () =>
    minMs + Math.floor(random() * minMs);

/**
 * Destination checks (docs/design/health.md): a round claims the links due, each for this
 * instance alone, checks them (the checker keeps to its per-host and in-flight bounds), and
 * records each result; a change between working and broken is told once, by the instance that
 * saw it, in the unit that records it.
 */
export class HealthChecks {
  private readonly unit: UnitOfWork<HealthUnitPorts>;

  constructor(
    private readonly deps: {
      store: LinkHealthStore;
      checker: DestinationChecker;
      events: HealthEvents;
      clock: Clock;
      policy: HealthPolicy;
      /** This instance's name on its leases. */
      holder: string;
      /** Rejects, or resolves early, once `signal` is aborted. */
      pause: (ms: number, signal?: AbortSignal) => Promise<void>;
      /** Checks asked for at once, per asker (an API key, a person); absent: unlimited. */
      limiter?: AttemptLimiter | undefined;
      unitOfWork?: UnitOfWork<HealthUnitPorts>;
    },
  ) {
    this.unit = deps.unitOfWork ?? noUnitOfWork<HealthUnitPorts>(deps);
  }

  /**
   * One round of at most `limit` links; answers whether it took `limit` (more may be due). `stop`
   * aborted ends the round at once: a link whose check had not ended is left unrecorded, its lease
   * left to run out, so the next round (this instance's or another's) takes it; an abort never
   * makes a link broken.
   */
  async round(limit: number, stop?: AbortSignal): Promise<boolean> {
    if (stop?.aborted) return false;
    const now = this.deps.clock.now();
    const claimed = await this.deps.store.claimDue(this.deps.holder, now, now + this.deps.policy.leaseMs, limit);
    await Promise.all(claimed.map((link) => this.checkInRound(link, stop)));
    return claimed.length >= limit && !stop?.aborted;
  }

  /**
   * A check asked for at once (POST /links/{id}/check, the link page's Check now): answers the
   * link's health after it. `asker` names whose limit it counts against.
   */
  async checkNow(accountId: number, link: { id: number; url: string }, asker?: string): Promise<LinkHealth> {
    if (asker !== undefined && this.deps.limiter) {
      const attempt = await this.deps.limiter.consume(asker);
      if (!attempt.allowed) throw new TooManyAttemptsError(attempt.retryAfterSeconds);
    }
    const before = (await this.deps.store.healthOf(accountId, [link.id])).get(link.id);
    return this.checkClaimed({
      linkId: link.id,
      accountId,
      url: link.url,
      health: before ?? UNKNOWN_HEALTH,
    });
  }

  /** A round's check: nothing is recorded once the round is stopped, whatever the checker answers. */
  private async checkInRound(link: ClaimedLink, stop: AbortSignal | undefined): Promise<void> {
    if (!stop) {
      await this.checkClaimed(link);
      return;
    }
    try {
      const verdict = await untilAborted(this.verdictOf(link.url, stop), stop);
      if (verdict === ABORTED || stop.aborted) return;
      await this.recordVerdict(link, verdict);
    } catch (error) {
      if (!stop.aborted) throw error;
    }
  }

  private async checkClaimed(link: ClaimedLink): Promise<LinkHealth> {
    return this.recordVerdict(link, await this.verdictOf(link.url));
  }

  private async recordVerdict(link: ClaimedLink, verdict: Verdict): Promise<LinkHealth> {
    const now = this.deps.clock.now();
    const health = nextHealth(link.health, verdict, now);
    const { okIntervalMs, brokenIntervalMs } = this.deps.policy;
    const nextCheckAt = now + (health.status === 'broken' ? brokenIntervalMs : okIntervalMs);
    const event = changeOf(link.health, health);
    await this.unit(async (tx) => {
      await tx.store.record(link.linkId, link.url, health, nextCheckAt);
      if (event) await tx.events.changed(link.accountId, event, link.linkId);
    });
    return health;
  }

  /** A failed check is tried once more after a pause before the link counts as broken. */
  private async verdictOf(url: string, stop?: AbortSignal): Promise<Verdict> {
    const first = classify(await this.deps.checker.check(url, stop));
    if (!first.broken || stop?.aborted) return first;
    await this.deps.pause(this.deps.policy.retryDelayMs(), stop);
    return classify(await this.deps.checker.check(url, stop));
  }
}

const ABORTED = Symbol('aborted');

/** `work`, or ABORTED as soon as `signal` is: a checker that ignores the signal cannot hold a stop. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  let onAbort!: () => void;
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  // The work left behind may still fail: its failure is no one's to hear.
  work.catch(() => undefined);
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

/** The health a verdict gives a link: a broken run keeps the time it began. */
function nextHealth(before: LinkHealth, verdict: Verdict, now: number): LinkHealth {
  if (!verdict.broken) return { status: 'ok', code: verdict.code, reason: null, checkedAt: now, brokenSince: null };
  return {
    status: 'broken',
    code: verdict.code,
    reason: verdict.reason,
    checkedAt: now,
    brokenSince: before.status === 'broken' ? (before.brokenSince ?? now) : now,
  };
}

/** The event of a change of state, if any: broken when it was not, recovered when it was and works. */
function changeOf(before: LinkHealth, after: LinkHealth): HealthEvent | null {
  if (after.status === 'broken' && before.status !== 'broken') return 'link.broken';
  if (after.status === 'ok' && before.status === 'broken') return 'link.recovered';
  return null;
}
