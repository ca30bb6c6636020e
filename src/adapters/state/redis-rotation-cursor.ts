import type { Redis } from 'ioredis';
import { IdleMap } from './idle-map.ts';
import { asUnavailable, toUnavailable } from './redis-watch.ts';
import type { RotationCursor } from '../../core/clicks/ports.ts';

export interface RedisRotationCursorOptions {
  /** Prepended to every key; default 'linkpix:'. */
  prefix?: string;
  /** Refreshed at a link's first visit and then every hour or two, so positions of idle links go away; default 30 days. */
  ttlSeconds?: number;
  now?: () => number;
}

/** How long a link's counter is taken to be seeded and its time to live fresh, after the script ran for it here. */
const SEEDED_MS = 3600_000;

// One script so the seed and the increment cannot interleave with another instance's.
// The counter only grows; the position is taken modulo the size of the list at each visit.
// KEYS[1] counter · ARGV size, known (last position served), ttl seconds, '1' when known replaces
// the counter (the database held the rotation meanwhile) · returns the position.
const NEXT = `
if ARGV[4] == '1' then redis.call('SET', KEYS[1], ARGV[2]) else redis.call('SET', KEYS[1], ARGV[2], 'NX') end
local value = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return value % tonumber(ARGV[1])
`;

const COMMAND = 'linkpixNextRotation';

// The steady visits of one turn of the event loop, in one command: KEYS the counters, ARGV how
// many visits each had · returns each counter's new value, in KEYS' order.
const TURN = `
local values = {}
for i, key in ipairs(KEYS) do values[i] = redis.call('INCRBY', key, ARGV[i]) end
return values
`;

const TURN_COMMAND = 'linkpixRotationTurn';
// A turn of fewer counters sends one INCRBY each (in one write): a script call costs Redis more
// than it saves the client until a turn holds several (docs/design/outages.md).
const SCRIPTED_TURN = 4;

interface NextCommand {
  [COMMAND](key: string, size: number, known: number, ttlSeconds: number, replace: '0' | '1'): Promise<number>;
  /** numberOfKeys, the keys, then their increments. */
  [TURN_COMMAND](...args: (string | number)[]): Promise<number[]>;
}

/** A rotating visit waiting for its turn of a counter. */
interface Waiter {
  size: number;
  resolve(position: number): void;
  reject(error: unknown): void;
}

/**
 * Round-robin positions shared by every instance that uses the same Redis and prefix. A link's
 * first visit here (and its first after each reconnection, and one every hour or two) runs the
 * script, which seeds the counter and renews its time to live; the visits between send a plain
 * INCR, the cheapest command there is for the same shared count. Should the counter vanish
 * meanwhile (evicted, or flushed), INCR starts it again at 1: the rotation goes on from another
 * entry, still in turn across instances, and the next script run gives it back its time to live.
 *
 * The steady visits of one turn of the event loop (every request read in one poll) go out
 * together once that poll is done: each link's counter is raised by as many visits as it had,
 * which take its consecutive values in the order they came, and a turn of several links raises
 * them all in one script call. Every value of a shared counter is still handed out once, so the
 * round robin stays exact across instances; what it saves under load is most of the client's
 * work per rotating visit (docs/design/outages.md).
 */
export class RedisRotationCursor implements RotationCursor {
  private readonly redis: Redis & NextCommand;
  private readonly prefix: string;
  private readonly ttlSeconds: number;
  private seeded: IdleMap<true>;
  /** The steady visits of this turn of the event loop, by counter. */
  private turn: Map<string, Waiter[]> | null = null;

  /** The client stays the caller's: this class never closes it. */
  constructor(redis: Redis, options: RedisRotationCursorOptions = {}) {
    redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: NEXT });
    redis.defineCommand(TURN_COMMAND, { lua: TURN });
    this.redis = redis as Redis & NextCommand;
    this.prefix = `${options.prefix ?? 'linkpix:'}rotation:`;
    this.ttlSeconds = options.ttlSeconds ?? 30 * 24 * 3600;
    const now = options.now ?? Date.now;
    this.seeded = new IdleMap(SEEDED_MS, now);
    // A Redis that came back may have lost every counter: each link is seeded again.
    redis.on('ready', () => (this.seeded = new IdleMap(SEEDED_MS, now)));
  }

  /** replace: continue from `known` even when Redis holds a position (taken back from the database). */
  next(linkId: number, size: number, known: number, replace = false): Promise<number> {
    if (!Number.isInteger(size) || size < 1)
      return Promise.reject(new RangeError(`rotation size must be a positive integer, got ${size}`));
    const key = this.prefix + linkId;
    if (!replace && this.seeded.get(linkId)) return this.inTurn(key, size);
    // INCR needs an integer; -1 makes the first position served 0.
    const seed = Number.isInteger(known) && known >= -1 ? known : -1;
    return this.redis[COMMAND](key, size, seed, this.ttlSeconds, replace ? '1' : '0').then((position) => {
      this.seeded.set(linkId, true);
      return Number(position);
    }, toUnavailable);
  }

  private inTurn(key: string, size: number): Promise<number> {
    return new Promise((resolve, reject) => {
      if (this.turn === null) {
        this.turn = new Map();
        setImmediate(this.endTurn);
      }
      const waiters = this.turn.get(key);
      if (waiters === undefined) this.turn.set(key, [{ size, resolve, reject }]);
      else waiters.push({ size, resolve, reject });
    });
  }

  private readonly endTurn = (): void => {
    const turn = this.turn;
    this.turn = null;
    if (turn === null) return;
    const counters = [...turn];
    const asked =
      counters.length < SCRIPTED_TURN
        ? Promise.all(counters.map(([key, waiters]) => this.redis.incrby(key, waiters.length)))
        : this.redis[TURN_COMMAND](
            counters.length,
            ...counters.map(([key]) => key),
            ...counters.map(([, waiters]) => waiters.length),
          );
    asked.then(
      (values) =>
        counters.forEach(([, waiters], c) => {
          const first = Number(values[c]) - waiters.length + 1;
          waiters.forEach((waiter, i) => waiter.resolve((first + i) % waiter.size));
        }),
      (error: unknown) => {
        const failure = asUnavailable(error);
        for (const [, waiters] of counters) for (const waiter of waiters) waiter.reject(failure);
      },
    );
  };
}
