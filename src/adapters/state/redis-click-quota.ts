import type { Redis } from 'ioredis';
import { asUnavailable, orUnavailable } from './redis-watch.ts';
import { UnavailableError } from '../../core/shared/errors.ts';

export interface RedisClickQuotaOptions {
  /** Prepended to every key; default 'linkpix:'. */
  prefix?: string;
  /** Refreshed on every granted claim so counts of idle links go away; default 30 days. */
  ttlSeconds?: number;
}

// Read, seed and increment in one script so no two instances can both see room for the last
// click. A count holds only beside the run id of the Redis it was seeded on (INFO's run_id, new
// at every start; docs/design/caps.md): on a count lost with a restart, restored from a snapshot
// or never made, the script counts nothing and answers "unseeded" with the run and its uptime,
// unless the claim carries a seed read for that run. Seeding takes the larger of the stored
// count and the seed. A claim counts from the larger of the count and its floor (a lower bound
// of what was granted); a refusal stores a floor higher than the count (the database's count
// taken back after an outage, docs/design/caps.md), since later claims may bring an older one.
// A Redis whose scripts cannot read its run id (INFO refused to scripts, or without run_id)
// answers an error: it cannot tell a count of its own from a lost one, so it counts nothing.
// KEYS[1] count, KEYS[2] the run it was seeded on · ARGV cap, floor, ttl seconds, the run the
// floor was read for ('' for none) · returns the new count when the visit may go on, 0 when
// not, {run, uptime seconds} when unseeded (uptime 0 when a count of another run is there: how
// long ago it was lost is not known).
const READ_RUN = `
local info = redis.pcall('INFO', 'server')
local run = type(info) == 'string' and string.match(info, 'run_id:(%x+)')
if not run then return redis.error_reply('linkpix: scripts cannot read run_id from INFO server') end
`;

const CLAIM = `${READ_RUN}
local stored = tonumber(redis.call('GET', KEYS[1]))
local seededOn = redis.call('GET', KEYS[2])
local seeding = false
if stored == nil or seededOn ~= run then
  if ARGV[4] ~= run then
    local uptime = 0
    if stored == nil and not seededOn then uptime = tonumber(string.match(info, 'uptime_in_seconds:(%d+)')) end
    return {run, uptime}
  end
  seeding = true
  stored = stored or 0
  redis.call('SET', KEYS[2], run, 'EX', ARGV[3])
end
local count = stored
local floor = tonumber(ARGV[2])
if floor > count then count = floor end
if count >= tonumber(ARGV[1]) then
  if count > stored or seeding then redis.call('SET', KEYS[1], count, 'EX', ARGV[3]) end
  return 0
end
redis.call('SET', KEYS[1], count + 1, 'EX', ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return count + 1
`;

/** A claim on a count not seeded since Redis last started: what it takes to seed it. */
export interface Unseeded {
  /** The run id of the Redis that answered: a seed holds only if read for it. */
  run: string;
  /**
   * How long (ms) Redis has surely been up: the clicks granted on the Redis before it were made
   * at least this long ago. 0 when it is not known.
   */
  upMs: number;
}

const RUN = `${READ_RUN}
return run
`;

/**
 * Redis is there but cannot count a link's cap now: its count is not seeded and cannot be, or
 * its scripts cannot read its run id. Answered 503; the database's count is not opened beside
 * a Redis other instances may be counting on (docs/design/caps.md, invariant 5).
 */
export class UnseedableError extends UnavailableError {}

const COMMAND = 'linkpixClaimQuota';

interface ClaimCommand {
  [COMMAND](
    key: string,
    runKey: string,
    cap: number,
    floor: number,
    ttlSeconds: number,
    seedRun: string,
  ): Promise<number | [string, number]>;
}

/**
 * Click caps shared by every instance that uses the same Redis and prefix, counted only once
 * seeded from the database (FallbackClickQuota does that): not a ClickQuota on its own.
 */
export class RedisClickQuota {
  private readonly redis: Redis & ClaimCommand;
  private readonly prefix: string;
  private readonly ttlSeconds: number;

  /** The client stays the caller's: this class never closes it. */
  constructor(redis: Redis, options: RedisClickQuotaOptions = {}) {
    // defineCommand sends EVALSHA and falls back to EVAL after a NOSCRIPT (e.g. Redis restarted).
    redis.defineCommand(COMMAND, { numberOfKeys: 2, lua: CLAIM });
    this.redis = redis as Redis & ClaimCommand;
    this.prefix = `${options.prefix ?? 'linkpix:'}quota:`;
    this.ttlSeconds = options.ttlSeconds ?? 30 * 24 * 3600;
  }

  /**
   * The count after a granted claim, 0 for a refusal (what this instance last saw of it), or
   * Unseeded. `seedRun`: the run of Redis `floor` was read for, the database's count after
   * every click granted on an earlier run was written; without it an unseeded count stays so.
   */
  async claimCount(linkId: number, cap: number, floor: number, seedRun = ''): Promise<number | Unseeded> {
    const seed = Number.isInteger(floor) && floor > 0 ? floor : 0;
    const key = this.prefix + linkId;
    const answer = await this.redis[COMMAND](key, `${key}:run`, cap, seed, this.ttlSeconds, seedRun).catch(cannotCount);
    if (!Array.isArray(answer)) return Number(answer);
    // Uptime is counted in whole seconds of a clock Redis caches: it may be one ahead.
    return { run: String(answer[0]), upMs: Math.max(0, Number(answer[1]) - 1) * 1000 };
  }

  /** The run id the claim script reads; UnseedableError when scripts cannot read it (checked at each connection). */
  async runId(): Promise<string> {
    return String(await this.redis.eval(RUN, 0).catch(cannotCount));
  }

  async exhausted(linkId: number, cap: number, known: number): Promise<boolean> {
    const stored = Number(await orUnavailable(this.redis.get(this.prefix + linkId)));
    const count = Math.max(Number.isFinite(stored) ? stored : 0, Number.isInteger(known) ? known : 0);
    return !(count < cap);
  }

  async forget(linkId: number): Promise<void> {
    await orUnavailable(this.redis.del(this.prefix + linkId, `${this.prefix + linkId}:run`));
  }
}

/**
 * A script's failure: an absent Redis as UnavailableError; any answer of a Redis that is there
 * (INFO refused, no run_id, scripts refused, still loading) as UnseedableError, a 503 rather
 * than a 500, and never a database count opened beside it.
 */
function cannotCount(error: unknown): never {
  const unavailable = asUnavailable(error);
  if (unavailable instanceof UnavailableError) throw unavailable;
  throw new UnseedableError('shared store (Redis)', { cause: error });
}
