import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { orUnavailable } from './redis-watch.ts';
import {
  ALLOWED,
  checkPolicy,
  type Attempt,
  type AttemptLimiter,
  type AttemptPolicy,
} from '../../core/shared/attempt-limiter.ts';

export interface RedisAttemptLimiterOptions {
  /** Prepended to every key; default 'linkpix:'. */
  prefix?: string;
}

/**
 * Attempts counted in Redis, shared by every instance that uses the same Redis and prefix.
 * rate-limiter-flexible increments first and reads the count back in one Lua script (a fixed
 * window opened by the first attempt, with its expiry set in the same script), so two instances
 * never both see the count below the limit.
 */
export class RedisAttemptLimiter implements AttemptLimiter {
  private readonly limiter: RateLimiterRedis;

  /** The client stays the caller's: this class never closes it. */
  constructor(redis: Redis, policy: AttemptPolicy, options: RedisAttemptLimiterOptions = {}) {
    checkPolicy(policy);
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${options.prefix ?? 'linkpix:'}attempts:${policy.name}`,
      points: policy.max,
      duration: policy.windowSeconds,
    });
  }

  async consume(key: string): Promise<Attempt> {
    try {
      await orUnavailable(this.limiter.consume(key));
      return ALLOWED;
    } catch (refusal) {
      // The library rejects with its result when the limit is passed, with an Error when Redis
      // fails (an absent Redis becomes UnavailableError: a 503, told once as an outage).
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
    }
  }

  async reset(key: string): Promise<void> {
    await orUnavailable(this.limiter.delete(key));
  }
}
