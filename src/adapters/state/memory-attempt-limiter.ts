import {
  ALLOWED,
  checkPolicy,
  type Attempt,
  type AttemptLimiter,
  type AttemptPolicy,
} from '../../core/shared/attempt-limiter.ts';

export interface MemoryAttemptLimiterOptions {
  now?: () => number;
  /**
   * Keys are client × target, so a client with many addresses could grow the table; past this
   * many fresh keys the oldest generation goes early, even if its windows are still open.
   */
  maxKeys?: number;
}

interface Window {
  attempts: number;
  endsAt: number;
}

/**
 * The attempt limiter of one instance. consume() counts before it returns, in the same
 * synchronous step as the check, so attempts in flight at once are counted one by one.
 *
 * Hand-written rather than rate-limiter-flexible's RateLimiterMemory: that one keeps every key
 * for its window with a timer each and no cap, so a flood of client addresses would grow it.
 */
export class MemoryAttemptLimiter implements AttemptLimiter {
  // Two generations swapped every window: a key untouched for a whole window has only a closed
  // window, so dropping the older generation never lets anyone in early.
  private current = new Map<string, Window>();
  private previous = new Map<string, Window>();
  private sweptAt: number;
  private readonly max: number;
  private readonly windowMs: number;
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(policy: AttemptPolicy, options: MemoryAttemptLimiterOptions = {}) {
    checkPolicy(policy);
    this.max = policy.max;
    this.windowMs = policy.windowSeconds * 1000;
    this.maxKeys = options.maxKeys ?? 100_000;
    this.now = options.now ?? Date.now;
    this.sweptAt = this.now();
  }

  consume(key: string): Promise<Attempt> {
    const now = this.now();
    this.sweep(now);
    let window = this.current.get(key);
    if (window === undefined) {
      window = this.previous.get(key);
      if (this.current.size >= this.maxKeys) this.rotate(now, false);
      if (window === undefined || window.endsAt <= now) window = { attempts: 0, endsAt: now + this.windowMs };
      this.current.set(key, window);
    } else if (window.endsAt <= now) {
      window.attempts = 0;
      window.endsAt = now + this.windowMs;
    }
    // Refused attempts are not counted: the count stays small, and the window ends on time.
    if (window.attempts >= this.max) {
      return Promise.resolve({ allowed: false, retryAfterSeconds: Math.ceil((window.endsAt - now) / 1000) });
    }
    window.attempts++;
    return Promise.resolve(ALLOWED);
  }

  reset(key: string): Promise<void> {
    this.current.delete(key);
    this.previous.delete(key);
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

const DONE = Promise.resolve();
