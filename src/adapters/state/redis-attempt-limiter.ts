import type { Redis } from 'ioredis';
import type { AttemptLimiter } from '../../core/redirect/attempt-limiter.ts';

export interface RedisAttemptLimiterOptions {
  max: number;
  windowSeconds: number;
  /** Prepended to every key; default 'linkpix:'. */
  prefix?: string;
}

// A fixed window opened by the first failure: the key counts failures and expires with the
// window. The expiry is set only when missing (EXPIRE NX, written out so Redis < 7 works too),
// inside the script so a crash between the two commands cannot leave a key that never expires.
// KEYS[1] failures · ARGV window seconds.
const RECORD = `
redis.call('INCR', KEYS[1])
if redis.call('TTL', KEYS[1]) < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return 0
`;

// KEYS[1] failures · ARGV max · returns the milliseconds left when blocked, else 0.
const BLOCKED = `
local failures = tonumber(redis.call('GET', KEYS[1]))
if failures == nil or failures < tonumber(ARGV[1]) then return 0 end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then return 0 end
return left
`;

const RECORD_COMMAND = 'linkpixRecordFailure';
const BLOCKED_COMMAND = 'linkpixBlockedFor';

interface LimiterCommands {
  [RECORD_COMMAND](key: string, windowSeconds: number): Promise<number>;
  [BLOCKED_COMMAND](key: string, max: number): Promise<number>;
}

/** Failure counts shared by every instance that uses the same Redis and prefix. */
export class RedisAttemptLimiter implements AttemptLimiter {
  private readonly redis: Redis & LimiterCommands;
  private readonly prefix: string;
  private readonly max: number;
  private readonly windowSeconds: number;

  /** The client stays the caller's: this class never closes it. */
  constructor(redis: Redis, options: RedisAttemptLimiterOptions) {
    if (!Number.isInteger(options.max) || options.max < 1) throw new RangeError('max must be a positive integer');
    if (!Number.isInteger(options.windowSeconds) || options.windowSeconds < 1) {
      throw new RangeError('windowSeconds must be a positive integer (Redis expires in whole seconds)');
    }
    redis.defineCommand(RECORD_COMMAND, { numberOfKeys: 1, lua: RECORD });
    redis.defineCommand(BLOCKED_COMMAND, { numberOfKeys: 1, lua: BLOCKED });
    this.redis = redis as Redis & LimiterCommands;
    this.prefix = `${options.prefix ?? 'linkpix:'}attempts:`;
    this.max = options.max;
    this.windowSeconds = options.windowSeconds;
  }

  async blockedFor(key: string): Promise<number> {
    const left = Number(await this.redis[BLOCKED_COMMAND](this.prefix + key, this.max));
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  async recordFailure(key: string): Promise<void> {
    await this.redis[RECORD_COMMAND](this.prefix + key, this.windowSeconds);
  }
}
