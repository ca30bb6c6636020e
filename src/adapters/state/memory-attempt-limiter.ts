import type { AttemptLimiter } from '../../core/redirect/attempt-limiter.ts';

export interface MemoryAttemptLimiterOptions {
  max: number;
  windowSeconds: number;
  now?: () => number;
  /**
   * Keys with failures are client × link, so a client with many addresses could grow the table;
   * past this many fresh keys the oldest generation goes early, even if not yet expired.
   */
  maxKeys?: number;
}

const FREE = Promise.resolve(0);
const DONE = Promise.resolve();

/**
 * A sliding window: at most `max` failures in any `windowSeconds`. Each key keeps the times of
 * its last `max` failures, so it frees its first slot exactly when the oldest one expires.
 */
export class MemoryAttemptLimiter implements AttemptLimiter {
  // Two generations swapped every window: a key untouched for a whole window has only expired
  // failures, so dropping the older generation never lets anyone in early.
  private current = new Map<string, number[]>();
  private previous = new Map<string, number[]>();
  private sweptAt: number;
  private readonly max: number;
  private readonly windowMs: number;
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(options: MemoryAttemptLimiterOptions) {
    if (!Number.isInteger(options.max) || options.max < 1) throw new RangeError('max must be a positive integer');
    if (!(options.windowSeconds > 0)) throw new RangeError('windowSeconds must be positive');
    this.max = options.max;
    this.windowMs = options.windowSeconds * 1000;
    this.maxKeys = options.maxKeys ?? 100_000;
    this.now = options.now ?? Date.now;
    this.sweptAt = this.now();
  }

  blockedFor(key: string): Promise<number> {
    const now = this.now();
    this.sweep(now);
    const failures = this.current.get(key) ?? this.previous.get(key);
    if (failures === undefined) return FREE;
    expire(failures, now - this.windowMs);
    const oldest = failures[0];
    if (failures.length < this.max || oldest === undefined) return FREE;
    return Promise.resolve(Math.ceil((oldest + this.windowMs - now) / 1000));
  }

  recordFailure(key: string): Promise<void> {
    const now = this.now();
    this.sweep(now);
    let failures = this.current.get(key);
    if (failures === undefined) {
      failures = this.previous.get(key) ?? [];
      if (this.current.size >= this.maxKeys) this.rotate(now, false);
      this.current.set(key, failures);
    }
    expire(failures, now - this.windowMs);
    failures.push(now);
    // Failures recorded while blocked push the unblocking back instead of growing the list.
    if (failures.length > this.max) failures.shift();
    return DONE;
  }

  /** Keys held (a key promoted to the current generation may count twice). */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  private sweep(now: number): void {
    const elapsed = now - this.sweptAt;
    if (elapsed >= this.windowMs) this.rotate(now, elapsed >= 2 * this.windowMs);
  }

  private rotate(now: number, dropAll: boolean): void {
    const dropped = this.previous;
    dropped.clear();
    if (dropAll) this.current.clear();
    this.previous = this.current;
    this.current = dropped;
    this.sweptAt = now;
  }
}

function expire(failures: number[], cutoff: number): void {
  while (failures.length > 0 && (failures[0] as number) <= cutoff) failures.shift();
}
