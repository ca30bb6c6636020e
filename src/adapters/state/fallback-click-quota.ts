import { setTimeout as sleep } from 'node:timers/promises';
import { IdleMap } from './idle-map.ts';
import { UnseedableError, type RedisClickQuota, type Unseeded } from './redis-click-quota.ts';
import type { RedisPresence } from './redis-presence.ts';
import { UnavailableError } from '../../core/shared/errors.ts';
import type { ClickClaimStore, ClickQuota } from '../../core/clicks/ports.ts';

export interface FallbackClickQuotaOptions {
  /**
   * How long after losing Redis this instance first opens a link's count in the database, and
   * after Redis (re)started it seeds a count there from the database's: the clicks granted
   * through the Redis before are in links.clicks by then (keep it above the click flush interval
   * plus a batch's write).
   */
  graceMs: number;
  now?: () => number;
}

// As the in-memory quota's: far above a cached record's age and the flush interval.
const IDLE_MS = 3 * 3600_000;

// Seeds refused by a Redis that restarted again before each arrived: one restart in flight is
// usual, five in a row is a Redis that keeps restarting, and the visit is answered 503.
const SEED_TRIES = 5;

const rethrowUnlessUnavailable = (error: unknown): void => {
  if (!(error instanceof UnavailableError)) throw error;
};

/** Only a Redis away lets the database count; a Redis that cannot count or be seeded answers 503. */
const rethrowUnlessRedisAway = (error: unknown): void => {
  rethrowUnlessUnavailable(error);
  if (error instanceof UnseedableError) throw error;
};

/**
 * Click caps in Redis while this instance has it, in the database's conditional count while it
 * has not (docs/design/caps.md). Going to the database, a link's count opens at
 * no less than what Redis granted (links.clicks after the grace, and the count this instance
 * last saw); coming back, the first claim per link and connection closes the database's count
 * and brings it to Redis. Redis counts only on a count seeded from the database since it last
 * started: a claim on any other is answered unseeded, and this instance seeds it once the
 * clicks granted on the Redis before are written. A closed count grants nothing, so an instance
 * still without Redis waits for its own connection rather than count beside one that has it.
 */
export class FallbackClickQuota implements ClickQuota {
  private readonly now: () => number;
  /** The count Redis last granted here, per link. */
  private readonly seen: IdleMap<number>;
  /** The connection (presence.generation) whose Redis count took the database's back. */
  private readonly synced: IdleMap<number>;
  /** The loss (presence.losses) during which this instance opened the database's count. */
  private readonly opened: IdleMap<number>;

  constructor(
    private readonly redis: Pick<RedisClickQuota, 'claimCount' | 'exhausted' | 'forget'>,
    private readonly claims: ClickClaimStore,
    private readonly presence: Pick<RedisPresence, 'up' | 'generation' | 'losses' | 'lostAt' | 'lost'>,
    private readonly options: FallbackClickQuotaOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.seen = new IdleMap(IDLE_MS, this.now);
    this.synced = new IdleMap(IDLE_MS, this.now);
    this.opened = new IdleMap(IDLE_MS, this.now);
  }

  async claim(linkId: number, cap: number, known: number): Promise<boolean> {
    if (this.presence.up) {
      try {
        return await this.viaRedis(linkId, cap, known);
      } catch (error) {
        rethrowUnlessRedisAway(error);
        this.presence.lost();
      }
    }
    return this.viaDatabase(linkId, cap, known);
  }

  async exhausted(linkId: number, cap: number, known: number): Promise<boolean> {
    if (this.presence.up) {
      try {
        return await this.redis.exhausted(linkId, cap, known);
      } catch (error) {
        rethrowUnlessUnavailable(error);
      }
    }
    const counted = (await this.claims.claimed(linkId)) ?? 0;
    return !(Math.max(counted, known) < cap);
  }

  async forget(linkId: number): Promise<void> {
    // The database's count goes with the link's row; Redis's expires if Redis is away.
    this.seen.delete(linkId);
    this.synced.delete(linkId);
    this.opened.delete(linkId);
    await this.redis.forget(linkId);
  }

  /** takeBack: bring the database's count to Redis even if this connection already did. */
  private async viaRedis(linkId: number, cap: number, known: number, takeBack = false): Promise<boolean> {
    let generation = this.presence.generation;
    // What this instance last saw granted: below Redis's count, unless Redis came back empty
    // before every instance's clicks were written.
    let floor = this.floor(linkId, known);
    let tookBack = !takeBack && this.synced.get(linkId) === generation;
    if (!tookBack) {
      try {
        const counted = await this.claims.close(linkId, this.now());
        if (counted !== null) floor = Math.max(floor, counted);
        tookBack = true;
      } catch (error) {
        // The database is away too: Redis still counts; the count is taken back next time.
        rethrowUnlessUnavailable(error);
      }
    }
    const answer = await this.redis.claimCount(linkId, cap, floor);
    let count: number;
    if (typeof answer === 'number') count = answer;
    else {
      ({ count, sentOn: generation } = await this.seed(linkId, cap, floor, answer));
      tookBack = true;
    }
    if (count > 0 && this.presence.generation !== generation)
      return this.grantedAcrossReconnection(linkId, cap, known, count);
    if (tookBack) this.synced.set(linkId, generation);
    if (count > 0) this.seen.set(linkId, count);
    return count > 0;
  }

  /**
   * Redis started (again) since the link's count was seeded, or never had one: it counts on it
   * once seeded from the database's count, read when the clicks granted on the Redis before are
   * written (they were granted before this one started, `upMs` or more ago). A seed is taken only
   * by the Redis it was read for; one that restarted meanwhile answers unseeded again.
   */
  private async seed(
    linkId: number,
    cap: number,
    floor: number,
    unseeded: Unseeded,
  ): Promise<{ count: number; sentOn: number }> {
    let asked = unseeded;
    for (let tries = 0; tries < SEED_TRIES; tries++) {
      await this.graceAfter(this.now() - asked.upMs);
      const sentOn = this.presence.generation;
      let counted: number | null;
      try {
        counted = await this.claims.close(linkId, this.now());
      } catch (error) {
        rethrowUnlessUnavailable(error);
        throw new UnseedableError('database', { cause: error });
      }
      if (counted === null) return { count: 0, sentOn }; // the link is gone
      const answer = await this.redis.claimCount(linkId, cap, Math.max(floor, counted), asked.run);
      if (typeof answer === 'number') return { count: answer, sentOn };
      asked = answer;
    }
    throw new UnseedableError('shared store (Redis)');
  }

  /**
   * ioredis resends a command that was unanswered when its connection dropped, so a claim sent
   * before an outage may run on a Redis that restarted empty, seeded only with the floor it was
   * sent with, while the database counted on meanwhile. The grant holds only if it counted past
   * the database's count (once taken back, Redis starts there, so any claim after it does);
   * otherwise it is claimed again from that count.
   */
  private async grantedAcrossReconnection(linkId: number, cap: number, known: number, count: number): Promise<boolean> {
    let counted: number | null;
    try {
      counted = await this.claims.close(linkId, this.now());
    } catch (error) {
      // The database is away too: nothing counted there to weigh the grant against.
      rethrowUnlessUnavailable(error);
      counted = null;
    }
    if (counted === null || count > counted) {
      this.seen.set(linkId, count);
      return true;
    }
    return this.viaRedis(linkId, cap, Math.max(known, counted), true);
  }

  private async viaDatabase(linkId: number, cap: number, known: number): Promise<boolean> {
    const losses = this.presence.losses;
    if (this.opened.get(linkId) !== losses) {
      const lostAt = this.presence.lostAt ?? this.now();
      await this.graceAfter(lostAt);
      const state = await this.claims.open(linkId, this.floor(linkId, known), { lostAt });
      if (state === 'gone') return false;
      if (state === 'closed') return this.backToRedis(linkId, cap, known);
      this.opened.set(linkId, losses);
    }
    const answer = await this.claims.claim(linkId, cap);
    if (answer === 'closed') return this.backToRedis(linkId, cap, known);
    return answer === 'granted'; // 'missing': the link's row went with the link
  }

  /**
   * Another instance has Redis again and took the count there. ioredis holds the command until
   * this instance reconnects; if it cannot (Redis unreachable from here alone), the database's
   * count opens again: the one case where both count at once (docs/design/caps.md, Bounds).
   *
   * The command carries the database's count as its floor even when this instance had synced
   * the link on the connection it still knows: it will run on the new one, maybe on a Redis that
   * restarted empty, and may get there before the instance that closed the count has seeded it.
   */
  private async backToRedis(linkId: number, cap: number, known: number): Promise<boolean> {
    try {
      return await this.viaRedis(linkId, cap, known, true);
    } catch (error) {
      rethrowUnlessRedisAway(error);
    }
    const state = await this.claims.open(linkId, this.floor(linkId, known), { lostAt: this.now(), force: true });
    if (state === 'gone') return false;
    this.opened.set(linkId, this.presence.losses);
    return (await this.claims.claim(linkId, cap)) === 'granted';
  }

  /** Until the clicks granted through Redis before `lostAt` are written to the database. */
  private async graceAfter(lostAt: number): Promise<void> {
    const wait = lostAt + this.options.graceMs - this.now();
    if (wait > 0) await sleep(wait);
  }

  private floor(linkId: number, known: number): number {
    return Math.max(Number.isInteger(known) ? known : 0, this.seen.get(linkId) ?? 0);
  }
}
