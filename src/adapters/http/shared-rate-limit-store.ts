import type { Redis } from 'ioredis';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface SharedRateLimitOptions {
  /** Prepended to every key (REDIS_PREFIX). */
  prefix: string;
  /** Whose counts these are ('api', 'web'): each limit keeps its own. */
  name: string;
  max: number;
  windowMs: number;
}

/**
 * A rate limit's counts (the API's, the web app's) in Redis, one budget for every instance (docs/design/outages.md):
 * rate-limiter-flexible's fixed window (incremented and expired in one Lua script). While this
 * instance has no Redis, its insurance limiter counts in memory (each instance then allows the
 * limit of its own) instead of letting every request through; Redis is used again once it is back.
 */
export function sharedRateLimitStore(redis: Redis, options: SharedRateLimitOptions): FastifyRateLimitStoreCtor {
  const duration = Math.max(1, Math.ceil(options.windowMs / 1000));
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${options.prefix}${options.name}-rate`,
    points: options.max,
    duration,
    // Not ready (reconnecting): to memory at once rather than wait for ioredis's retries.
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ points: options.max, duration }),
  });
  return class SharedRateLimitStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void): void {
      limiter.consume(key).then(
        (res) => callback(null, { current: res.consumedPoints, ttl: res.msBeforeNext }),
        // Past the limit the library rejects with its result; an Error only if memory failed too.
        (refusal: unknown) =>
          refusal instanceof RateLimiterRes
            ? callback(null, { current: refusal.consumedPoints, ttl: refusal.msBeforeNext })
            : callback(refusal instanceof Error ? refusal : new Error(String(refusal))),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}
