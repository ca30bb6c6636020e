import { IdleMap } from './idle-map.ts';
import type { ClickQuota } from '../../core/clicks/ports.ts';

export interface MemoryClickQuotaOptions {
  /**
   * A link's count is dropped between one and two of these after its last granted claim and is
   * then seeded again from `known`. Keep it far above the click sink's flush interval plus the
   * age of the link records callers read `known` from, or a re-seeded count could lag behind.
   */
  idleMs?: number;
  now?: () => number;
}

// Above the oldest a cached link record can be when served (twice LINK_CACHE_TTL_MS's ceiling of
// 1 h: an expired record is served once more while it is read again) plus the click flush
// interval (STATS_FLUSH_INTERVAL_MS under heavy traffic: the counters go with the rollup
// window, docs/design/clicks.md), with room for a database that was away for a while: `known` lags by that much.
const DEFAULT_IDLE_MS = 3 * 3600_000;

const DONE = Promise.resolve();

/**
 * Click caps for a single instance. Exact without locks because Node runs each claim to the end
 * before the next one starts, and nothing below awaits. Answers synchronously (see Eventually).
 */
export class MemoryClickQuota implements ClickQuota {
  private readonly counts: IdleMap<number>;

  constructor(options: MemoryClickQuotaOptions = {}) {
    this.counts = new IdleMap(options.idleMs ?? DEFAULT_IDLE_MS, options.now ?? Date.now);
  }

  claim(linkId: number, cap: number, known: number): boolean {
    let count = this.counts.get(linkId) ?? 0;
    // The database can be ahead after this instance dropped or never saw the link.
    if (known > count) count = known;
    // Written so that a cap that is not a number refuses rather than lets everyone through.
    if (!(count < cap)) return false;
    this.counts.set(linkId, count + 1);
    return true;
  }

  exhausted(linkId: number, cap: number, known: number): boolean {
    const count = Math.max(this.counts.get(linkId) ?? 0, known);
    return !(count < cap); // a cap that is not a number counts as used up, as in claim
  }

  forget(linkId: number): Promise<void> {
    this.counts.delete(linkId);
    return DONE;
  }

  /** Entries held (a link promoted to the current generation may count twice). */
  get size(): number {
    return this.counts.size;
  }
}
