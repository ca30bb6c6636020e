import { IdleMap } from './idle-map.ts';
import type { RotationCursor } from '../../core/clicks/ports.ts';

export interface MemoryRotationCursorOptions {
  /**
   * A link's position is dropped between one and two of these after its last visit and is then
   * seeded again from `known` (last_rotation). Keep it above the click sink's flush interval so
   * the database holds the latest position by then.
   */
  idleMs?: number;
  now?: () => number;
}

// Above the oldest a cached link record can be when served (twice LINK_CACHE_TTL_MS's ceiling of
// 1 h: an expired record is served once more while it is read again) plus the click flush
// interval, with room for a database that was away for a while: `known` lags by that much.
const DEFAULT_IDLE_MS = 3 * 3600_000;

/**
 * Round-robin positions for a single instance; exact because each call runs to the end alone.
 * Answers synchronously (see Eventually).
 */
export class MemoryRotationCursor implements RotationCursor {
  // Last position served per link.
  private readonly counts: IdleMap<number>;

  constructor(options: MemoryRotationCursorOptions = {}) {
    this.counts = new IdleMap(options.idleMs ?? DEFAULT_IDLE_MS, options.now ?? Date.now);
  }

  next(linkId: number, size: number, known: number): number {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`rotation size must be a positive integer, got ${size}`);
    const last = this.counts.get(linkId) ?? (Number.isInteger(known) ? known : -1);
    let position = (last + 1) % size;
    if (position < 0) position += size;
    this.counts.set(linkId, position);
    return position;
  }

  /** Entries held (a link promoted to the current generation may count twice). */
  get size(): number {
    return this.counts.size;
  }
}
