import type { Redis } from 'ioredis';
import { orUnavailable } from './redis-watch.ts';
import type { ClickQuota } from '../../core/clicks/ports.ts';

export interface RedisClickQuotaOptions {
  /** Prepended to every key; default 'linkpix:'. */
  prefix?: string;
  /** Refreshed on every granted claim so counts of idle links go away; default 30 days. */
  ttlSeconds?: number;
}

// Read, seed and increment in one script so no two instances can both see room for the last
// click. Seeding takes the larger of the stored count and `known` (as the in-memory quota does):
// the stored count is normally ahead of the database, and if Redis lost it the database is the
// best floor. A refusal writes only a seed higher than the stored count (the database's count
// taken back after an outage, docs/adr/0029): later claims may bring an older `known`. Exhausted links
// otherwise cost one read.
// KEYS[1] count · ARGV cap, known, ttl seconds · returns the new count when the visit may go
// on, 0 when not.
const CLAIM = `
local stored = tonumber(redis.call('GET', KEYS[1])) or 0
local count = stored
local known = tonumber(ARGV[2])
if known > count then count = known end
if count >= tonumber(ARGV[1]) then
  if count > stored then redis.call('SET', KEYS[1], count, 'EX', ARGV[3]) end
  return 0
end
redis.call('SET', KEYS[1], count + 1, 'EX', ARGV[3])
return count + 1
`;

const COMMAND = 'linkpixClaimQuota';

interface ClaimCommand {
  [COMMAND](key: string, cap: number, known: number, ttlSeconds: number): Promise<number>;
}

/** Click caps shared by every instance that uses the same Redis and prefix. */
export class RedisClickQuota implements ClickQuota {
  private readonly redis: Redis & ClaimCommand;
  private readonly prefix: string;
  private readonly ttlSeconds: number;

  /** The client stays the caller's: this class never closes it. */
  constructor(redis: Redis, options: RedisClickQuotaOptions = {}) {
    // defineCommand sends EVALSHA and falls back to EVAL after a NOSCRIPT (e.g. Redis restarted).
    redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: CLAIM });
    this.redis = redis as Redis & ClaimCommand;
    this.prefix = `${options.prefix ?? 'linkpix:'}quota:`;
    this.ttlSeconds = options.ttlSeconds ?? 30 * 24 * 3600;
  }

  async claim(linkId: number, cap: number, known: number): Promise<boolean> {
    return (await this.claimCount(linkId, cap, known)) > 0;
  }

  /** The count after a granted claim, 0 for a refusal: what this instance last saw of it. */
  async claimCount(linkId: number, cap: number, known: number): Promise<number> {
    const seed = Number.isInteger(known) && known > 0 ? known : 0;
    return Number(await orUnavailable(this.redis[COMMAND](this.prefix + linkId, cap, seed, this.ttlSeconds)));
  }

  async exhausted(linkId: number, cap: number, known: number): Promise<boolean> {
    const stored = Number(await orUnavailable(this.redis.get(this.prefix + linkId)));
    const count = Math.max(Number.isFinite(stored) ? stored : 0, Number.isInteger(known) ? known : 0);
    return !(count < cap);
  }

  async forget(linkId: number): Promise<void> {
    await orUnavailable(this.redis.del(this.prefix + linkId));
  }
}
