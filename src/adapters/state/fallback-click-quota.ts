import { setTimeout as sleep } from 'node:timers/promises';
import { IdleMap } from './idle-map.ts';
import type { RedisClickQuota } from './redis-click-quota.ts';
import type { RedisPresence } from './redis-presence.ts';
import { UnavailableError } from '../../core/shared/errors.ts';
import type { ClickClaimStore, ClickQuota } from '../../core/clicks/ports.ts';

export interface FallbackClickQuotaOptions {
  /**
   * How long after losing Redis this instance first opens a link's count in the database: the
   * clicks other instances granted through Redis just before are in links.clicks by then (keep it
   * above the click flush interval plus a batch's write).
   */
  graceMs: number;
  now?: () => number;
}

// As the in-memory quota's: far above a cached record's age and the flush interval.
const IDLE_MS = 3 * 3600_000;

const rethrowUnlessUnavailable = (error: unknown): void => {
  if (!(error instanceof UnavailableError)) throw error;
};

/**
 * Click caps in Redis while this instance has it, in the database's conditional count while it
 * has not (docs/adr/0029). Going to the database, a link's count opens at no less than what
 * Redis granted (links.clicks after the grace, and the count this instance last saw); coming
 * back, the first claim per link and connection closes the database's count and seeds Redis
 * with it, or with the link's clicks where no count was opened (Redis may have counted the cap
 * out and restarted empty). A closed count grants nothing, so an instance still without Redis
 * waits for its own connection rather than count beside one that has it.
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
    private readonly presence: Pick<RedisPresence, 'up' | 'generation' | 'losses' | 'lostAt' | 'lastLossAt' | 'lost'>,
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
        rethrowUnlessUnavailable(error);
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

  /** takeBack: seed Redis from the database's count even if this connection already did. */
  private async viaRedis(linkId: number, cap: number, known: number, takeBack = false): Promise<boolean> {
    const generation = this.presence.generation;
    // What this instance last saw granted: below Redis's count, unless Redis came back empty
    // before every instance's clicks were written.
    let floor = this.floor(linkId, known);
    let tookBack = !takeBack && this.synced.get(linkId) === generation;
    if (!tookBack) {
      await this.graceAfterLoss();
      try {
        const counted = await this.claims.close(linkId, this.now());
        if (counted !== null) floor = Math.max(floor, counted);
        tookBack = true;
      } catch (error) {
        // The database is away too: Redis still counts; the count is taken back next time.
        rethrowUnlessUnavailable(error);
      }
    }
    const count = await this.redis.claimCount(linkId, cap, floor);
    if (count > 0 && this.presence.generation !== generation) return this.grantedAcrossReconnection(linkId, cap, known, count);
    if (tookBack) this.synced.set(linkId, generation);
    if (count > 0) this.seen.set(linkId, count);
    return count > 0;
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
   * count opens again: the one case where both count at once (docs/adr/0029).
   *
   * The command carries the database's count as its floor even when this instance had synced
   * the link on the connection it still knows: it will run on the new one, maybe on a Redis that
   * restarted empty, and may get there before the instance that closed the count has seeded it.
   */
  private async backToRedis(linkId: number, cap: number, known: number): Promise<boolean> {
    try {
      return await this.viaRedis(linkId, cap, known, true);
    } catch (error) {
      rethrowUnlessUnavailable(error);
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

  /**
   * Taking a count back soon after a loss: a Redis that restarted empty is seeded from the
   * database, which holds the clicks granted before the loss only once they are written.
   */
  private async graceAfterLoss(): Promise<void> {
    if (this.presence.lastLossAt !== null) await this.graceAfter(this.presence.lastLossAt);
  }

  private floor(linkId: number, known: number): number {
    return Math.max(Number.isInteger(known) ? known : 0, this.seen.get(linkId) ?? 0);
  }
}
