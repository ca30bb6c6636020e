// Runs against a real Redis (CI starts one). An unreachable Redis fails these tests: a skip
// would hide that the multi-instance adapters were never exercised.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisClickQuota } from '../../../src/adapters/state/redis-click-quota.ts';
import { RedisRotationCursor } from '../../../src/adapters/state/redis-rotation-cursor.ts';
import { RedisAttemptLimiter } from '../../../src/adapters/state/redis-attempt-limiter.ts';
import { RedisInvalidationBus } from '../../../src/adapters/state/redis-invalidation.ts';
import { UnavailableError } from '../../../src/core/shared/errors.ts';
import { describeAttemptLimiterContract } from '../../contracts/attempt-limiter-contract.ts';
import { describeRotationCursorContract } from '../../contracts/click-state-contracts.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `linkpix-test:${randomUUID()}:`;

// Two connections stand for two server instances sharing one Redis.
let serverA: Redis;
let serverB: Redis;

let lastError: unknown = null;

function connect(): Redis {
  const client = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
  return client.on('error', (error) => void (lastError = error));
}

async function within<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(what())), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function interleaved<T>(n: number, a: () => Promise<T>, b: () => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => (i % 2 === 0 ? a() : b())));
}

before(async () => {
  serverA = connect();
  serverB = connect();
  try {
    await Promise.all([serverA.connect(), serverB.connect()]);
  } catch (error) {
    throw new Error(`Redis is not reachable at ${REDIS_URL} (set TEST_REDIS_URL): ${String(lastError ?? error)}`);
  }
});

after(async () => {
  if (serverA?.status === 'ready') {
    let cursor = '0';
    do {
      const [next, keys] = await serverA.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await serverA.del(...keys);
    } while (cursor !== '0');
  }
  serverA?.disconnect();
  serverB?.disconnect();
});

// The same contracts as the memory adapters and the core's fakes (test/contracts/unit/click-state.test.ts),
// here two instances on one Redis. RedisClickQuota counts only once seeded, so it is not a
// ClickQuota of its own: its contract runs through FallbackClickQuota (test/contracts/integration).
let contractLink = 10_000;
describeRotationCursorContract('RedisRotationCursor, two instances', () => ({
  a: new RedisRotationCursor(serverA, { prefix }),
  b: new RedisRotationCursor(serverB, { prefix }),
  link: async () => ++contractLink,
}));

/**
 * A claim on the seeded path, as FallbackClickQuota makes it with no grace: an unseeded count
 * is seeded with `floor` for the run that answered (the database's count in production).
 */
async function granted(quota: RedisClickQuota, link: number, cap: number, floor: number): Promise<boolean> {
  let answer = await quota.claimCount(link, cap, floor);
  if (typeof answer === 'object') answer = await quota.claimCount(link, cap, floor, answer.run);
  assert.equal(typeof answer, 'number', 'seeded for the run that answered');
  return (answer as number) > 0;
}

describe('RedisClickQuota', () => {
  test('200 concurrent claims from two instances on a cap of 50: exactly 50 pass', async () => {
    const a = new RedisClickQuota(serverA, { prefix });
    const b = new RedisClickQuota(serverB, { prefix });
    const results = await interleaved(
      200,
      () => granted(a, 1, 50, 0),
      () => granted(b, 1, 50, 0),
    );
    assert.equal(results.filter(Boolean).length, 50);
    assert.equal(await serverA.get(`${prefix}quota:1`), '50');
  });

  test('seeded with 48 on a cap of 50: exactly 2 more pass', async () => {
    const a = new RedisClickQuota(serverA, { prefix });
    const b = new RedisClickQuota(serverB, { prefix });
    const results = await interleaved(
      200,
      () => granted(a, 2, 50, 48),
      () => granted(b, 2, 50, 48),
    );
    assert.equal(results.filter(Boolean).length, 2);
  });

  test('the stored count wins over a lagging floor; a floor ahead of it wins', async () => {
    const quota = new RedisClickQuota(serverA, { prefix });
    for (let i = 0; i < 10; i++) assert.equal(await granted(quota, 3, 20, 0), true);
    let passed = 0;
    for (let i = 0; i < 30; i++) if (await granted(quota, 3, 20, 2)) passed++;
    assert.equal(passed, 10);
    assert.equal(await granted(quota, 4, 20, 0), true);
    assert.equal(await granted(quota, 4, 20, 19), true);
    assert.equal(await granted(quota, 4, 20, 0), false);
  });

  test('forget deletes the count, which is then unseeded again', async () => {
    const quota = new RedisClickQuota(serverA, { prefix });
    assert.equal(await granted(quota, 5, 1, 0), true);
    assert.equal(await granted(quota, 5, 1, 0), false);
    await quota.forget(5);
    assert.equal(await serverA.exists(`${prefix}quota:5`), 0);
    assert.equal(typeof (await quota.claimCount(5, 1, 0)), 'object', 'unseeded');
    assert.equal(await granted(quota, 5, 1, 0), true);
  });

  test('a seed not read for this run counts nothing, whatever run it names ("*" included)', async () => {
    const quota = new RedisClickQuota(serverA, { prefix });
    for (const seedRun of ['', '*', 'another run']) {
      assert.equal(
        typeof (await quota.claimCount(23, 10, 4, seedRun)),
        'object',
        `seed run ${JSON.stringify(seedRun)}`,
      );
    }
    assert.equal(await serverA.exists(`${prefix}quota:23`, `${prefix}quota:23:run`), 0);
  });

  test('runId is the run the claim script reads: the one an unseeded claim answers', async () => {
    const quota = new RedisClickQuota(serverA, { prefix });
    const run = /run_id:(\w+)/.exec(await serverA.info('server'))![1]!;
    assert.equal(await quota.runId(), run);
    const answer = await quota.claimCount(24, 10, 0);
    assert.equal(typeof answer === 'object' && answer.run, run);
  });

  test('a count seeded on another run of Redis (restarted, or restored from a snapshot) counts nothing until a seed read for this run comes', async () => {
    const quota = new RedisClickQuota(serverA, { prefix });
    const run = /run_id:(\w+)/.exec(await serverA.info('server'))![1]!;
    await serverA.set(`${prefix}quota:20`, '5');
    await serverA.set(`${prefix}quota:20:run`, 'a run before');
    assert.deepEqual(
      await quota.claimCount(20, 10, 3),
      { run, upMs: 0 },
      'how long ago the count was lost is not known',
    );
    assert.deepEqual(await quota.claimCount(20, 10, 7, 'another run'), { run, upMs: 0 });
    assert.equal(await serverA.get(`${prefix}quota:20`), '5', 'nothing counted');
    assert.equal(await quota.claimCount(20, 10, 7, run), 8, 'the larger of the stored count and the seed');
    assert.equal(await serverA.get(`${prefix}quota:20:run`), run);
    assert.equal(await quota.claimCount(20, 10, 0), 9, 'seeded: counted on');
  });

  test('a missing count is unseeded, with how long Redis has surely been up; a seed for this run seeds it', async () => {
    const quota = new RedisClickQuota(serverA, { prefix });
    const uptime = Number(/uptime_in_seconds:(\d+)/.exec(await serverA.info('server'))![1]);
    const answer = await quota.claimCount(21, 10, 4);
    assert.ok(
      typeof answer === 'object' && answer.upMs <= uptime * 1000 && answer.upMs >= Math.max(0, uptime - 2) * 1000,
      JSON.stringify({ answer, uptime }),
    );
    assert.equal(await serverA.exists(`${prefix}quota:21`, `${prefix}quota:21:run`), 0);
    assert.equal(await granted(quota, 21, 10, 4), true);
    assert.equal(await serverA.get(`${prefix}quota:21`), '5');
  });

  test('a seed at the cap is kept and refuses; the count is seeded after it', async () => {
    const quota = new RedisClickQuota(serverA, { prefix });
    const unseeded = await quota.claimCount(22, 3, 0);
    assert.ok(typeof unseeded === 'object');
    assert.equal(await quota.claimCount(22, 3, 5, unseeded.run), 0);
    assert.equal(await serverA.get(`${prefix}quota:22`), '5');
    assert.equal(await quota.claimCount(22, 3, 0), 0, 'a refusal, not unseeded');
    await quota.forget(22);
    assert.equal(await serverA.exists(`${prefix}quota:22`, `${prefix}quota:22:run`), 0);
  });

  test('keys carry the prefix and a TTL refreshed on use', async () => {
    const quota = new RedisClickQuota(serverA, { prefix, ttlSeconds: 100 });
    await granted(quota, 6, 5, 0);
    const ttl = await serverA.ttl(`${prefix}quota:6`);
    assert.ok(ttl > 90 && ttl <= 100, `ttl ${ttl}`);
    const runTtl = await serverA.ttl(`${prefix}quota:6:run`);
    assert.ok(runTtl > 90 && runTtl <= 100, `the run's ttl ${runTtl}`);
    const defaults = new RedisClickQuota(serverA, { prefix });
    await granted(defaults, 6, 5, 0);
    assert.ok((await serverA.ttl(`${prefix}quota:6`)) > 29 * 24 * 3600);
  });
});

describe('RedisRotationCursor', () => {
  test('seeds from known (the last position served)', async () => {
    const cursor = new RedisRotationCursor(serverA, { prefix });
    assert.deepEqual(
      [await cursor.next(10, 3, 1), await cursor.next(10, 3, 1), await cursor.next(10, 3, 1)],
      [2, 0, 1],
    );
    assert.equal(await cursor.next(11, 3, -1), 0);
  });

  test('1000 concurrent visits over 3 entries from two instances: 333 or 334 each', async () => {
    const a = new RedisRotationCursor(serverA, { prefix });
    const b = new RedisRotationCursor(serverB, { prefix });
    const positions = await interleaved(
      1000,
      () => a.next(12, 3, 0),
      () => b.next(12, 3, 0),
    );
    const counts = [0, 0, 0];
    for (const p of positions) counts[p]!++;
    for (const c of counts) assert.ok(c === 333 || c === 334, counts.join(','));
  });

  test('consecutive visits alternating between instances stay balanced in every window', async () => {
    const a = new RedisRotationCursor(serverA, { prefix });
    const b = new RedisRotationCursor(serverB, { prefix });
    const positions: number[] = [];
    for (let i = 0; i < 300; i++) positions.push(await (i % 2 === 0 ? a : b).next(13, 3, 0));
    for (let width = 1; width <= 10; width++) {
      for (let start = 0; start + width <= positions.length; start++) {
        const counts = [0, 0, 0];
        for (let i = start; i < start + width; i++) counts[positions[i]!]!++;
        for (const c of counts)
          assert.ok(
            c === Math.floor(width / 3) || c === Math.ceil(width / 3),
            `window ${start}+${width}: ${counts.join(',')}`,
          );
      }
    }
  });

  test('rejects a size below 1', async () => {
    await assert.rejects(new RedisRotationCursor(serverA, { prefix }).next(14, 0, 0), RangeError);
  });

  test('between seedings a plain INCR: a counter that vanished starts again at 1, and the next seeding renews its time to live', async () => {
    let now = 1_000_000;
    const cursor = new RedisRotationCursor(serverA, { prefix, now: () => now });
    const key = `${prefix}rotation:15`;
    assert.deepEqual([await cursor.next(15, 5, 2), await cursor.next(15, 5, 2)], [3, 4]);
    assert.ok((await serverA.ttl(key)) > 0);
    // Evicted, say: the visits between seedings go on without seeding it from `known` again.
    await serverA.del(key);
    assert.deepEqual([await cursor.next(15, 5, 2), await cursor.next(15, 5, 2)], [1, 2]);
    assert.equal(await serverA.ttl(key), -1, 'INCR made it without a time to live');
    now += 2 * 3600_000 + 1;
    assert.equal(await cursor.next(15, 5, 2), 3, 'the seeding keeps the count Redis holds');
    assert.ok((await serverA.ttl(key)) > 0, 'and gives it back its time to live');
  });

  test("a turn's visits of a link take consecutive positions in the order they came, from one INCRBY", async () => {
    const { client, sent } = await watchedConnection();
    const a = new RedisRotationCursor(client, { prefix });
    const b = new RedisRotationCursor(serverB, { prefix });
    assert.equal(await a.next(17, 4, -1), 0);
    assert.equal(await b.next(17, 4, -1), 1);
    sent.length = 0;
    // One turn of the event loop: four visits on one instance, two on the other.
    const [a1, a2, b1, a3, b2, a4] = await Promise.all([
      a.next(17, 4, -1),
      a.next(17, 4, -1),
      b.next(17, 4, -1),
      a.next(17, 4, -1),
      b.next(17, 4, -1),
      a.next(17, 4, -1),
    ]);
    assert.deepEqual([a2, a3, a4], [(a1 + 1) % 4, (a1 + 2) % 4, (a1 + 3) % 4]);
    assert.equal(b2, (b1 + 1) % 4);
    assert.deepEqual(
      [a1, a2, a3, a4, b1, b2].sort(),
      [2, 3, 0, 1, 2, 3].sort(),
      'values 2 to 7 of the counter, each once',
    );
    assert.deepEqual(sent, ['incrby'], "instance A's four visits in one command");
    await client.quit();
  });

  test("a turn's visits of four links or more go in one script call, each link's in turn", async () => {
    const { client, sent } = await watchedConnection();
    const cursor = new RedisRotationCursor(client, { prefix });
    for (const link of [20, 21, 22, 23]) assert.equal(await cursor.next(link, 5, -1), 0);
    sent.length = 0;
    const turn = await Promise.all([20, 21, 20, 22, 23, 22, 20].map((link) => cursor.next(link, 5, -1)));
    assert.deepEqual(turn, [1, 1, 2, 1, 1, 2, 3]);
    assert.deepEqual(
      sent.filter((name) => name !== 'eval'),
      ['evalsha'],
      'one script call (and its text once, should Redis not hold it yet)',
    );
    assert.equal(await cursor.next(21, 5, -1), 2);
    sent.length = 0;
    assert.deepEqual(await Promise.all([20, 21, 20].map((link) => cursor.next(link, 5, -1))), [4, 3, 0]);
    assert.deepEqual(sent, ['incrby', 'incrby'], 'a turn of fewer links: one INCRBY each');
    await client.quit();
  });

  test("a turn's failure reaches each of its visits", async () => {
    const client = connect();
    await client.connect();
    const cursor = new RedisRotationCursor(client, { prefix });
    const links = [24, 25, 26, 27];
    for (const link of links) assert.equal(await cursor.next(link, 3, -1), 0);
    await client.quit();
    // A turn of one link (INCRBY), then one of four (the script).
    for (const turn of [[24, 24], links]) {
      const visits = turn.map((link) => cursor.next(link, 3, -1));
      for (const visit of visits) await assert.rejects(visit, UnavailableError);
    }
  });

  test('replace seeds from known whatever this instance seeded before', async () => {
    const cursor = new RedisRotationCursor(serverA, { prefix });
    assert.deepEqual([await cursor.next(16, 4, 0), await cursor.next(16, 4, 0)], [1, 2]);
    assert.equal(await cursor.next(16, 4, 0, true), 1);
    assert.equal(await cursor.next(16, 4, 0), 2);
  });
});

let turn = 0;
// Each limiter made for a test goes to the other connection: two instances share the counts.
describeAttemptLimiterContract('RedisAttemptLimiter, two instances on one Redis', {
  make: (policy) => new RedisAttemptLimiter(turn++ % 2 === 0 ? serverA : serverB, policy, { prefix }),
  shared: true,
});

describe('RedisAttemptLimiter', () => {
  test('one key per name and client × link, under the prefix, expiring with the window', async () => {
    const limiter = new RedisAttemptLimiter(serverA, { name: 'password', max: 5, windowSeconds: 60 }, { prefix });
    await limiter.consume('1.2.3.4|42');
    await limiter.consume('1.2.3.4|42');
    const key = `${prefix}attempts:password:1.2.3.4|42`;
    assert.equal(await serverA.get(key), '2');
    const ttl = await serverA.ttl(key);
    assert.ok(ttl > 55 && ttl <= 60, `ttl ${ttl}`);
    await limiter.reset('1.2.3.4|42');
    assert.equal(await serverA.exists(key), 0);
  });

  test('a Redis that fails is an error, never an answer either way', async () => {
    const offline = new Redis(REDIS_URL, { lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
    offline.on('error', () => {});
    try {
      const limiter = new RedisAttemptLimiter(offline, { name: 'password', max: 5, windowSeconds: 60 }, { prefix });
      await assert.rejects(limiter.consume('k'), (error: unknown) => error instanceof Error);
    } finally {
      offline.disconnect();
    }
  });
});

describe('RedisInvalidationBus', () => {
  test('delivers link and account invalidations to a subscriber on another connection', async () => {
    const listening = new RedisInvalidationBus(serverA, { prefix });
    const publishing = new RedisInvalidationBus(serverB, { prefix });
    try {
      const seen: string[] = [];
      let arrived!: () => void;
      const both = new Promise<void>((resolve) => (arrived = resolve));
      await listening.subscribe({
        linkChanged: (id) => void (seen.push(`link ${id}`), seen.length === 2 && arrived()),
        accountChanged: (id) => void (seen.push(`account ${id}`), seen.length === 2 && arrived()),
        everythingChanged: () => void seen.push('everything'),
      });
      publishing.linkChanged(7);
      publishing.accountChanged(3);
      await within(both, 2000, () => `only got ${seen.join(', ')}`);
      assert.deepEqual(seen, ['link 7', 'account 3']);
    } finally {
      await listening.close();
      await publishing.close();
    }
  });

  test('tells its own subscribers at once, then again when the message comes back', async () => {
    const bus = new RedisInvalidationBus(serverA, { prefix });
    try {
      const seen: number[] = [];
      let echoed!: () => void;
      const echo = new Promise<void>((resolve) => (echoed = resolve));
      await bus.subscribe({
        linkChanged: (id) => void (seen.push(id), seen.length === 2 && echoed()),
        accountChanged: () => {},
        everythingChanged: () => {},
      });
      bus.linkChanged(9);
      assert.deepEqual(seen, [9]);
      await within(echo, 2000, () => 'the echo never came');
      assert.deepEqual(seen, [9, 9]);
    } finally {
      await bus.close();
    }
  });

  test('a throwing handler does not keep the others from hearing', async () => {
    const errors: unknown[] = [];
    const bus = new RedisInvalidationBus(serverA, { prefix, onError: (e) => errors.push(e) });
    try {
      const seen: number[] = [];
      await bus.subscribe({
        linkChanged: () => {
          throw new Error('boom');
        },
        accountChanged: () => {},
        everythingChanged: () => {},
      });
      await bus.subscribe({
        linkChanged: (id) => void seen.push(id),
        accountChanged: () => {},
        everythingChanged: () => {},
      });
      bus.linkChanged(1);
      assert.deepEqual(seen, [1]);
      assert.equal(errors.length, 1);
    } finally {
      await bus.close();
    }
  });
});

/** A connection of its own whose commands' names are listed as they are sent. */
async function watchedConnection(): Promise<{ client: Redis; sent: string[] }> {
  const client = connect();
  await client.connect();
  const sent: string[] = [];
  const send = client.sendCommand.bind(client);
  client.sendCommand = (command: Parameters<Redis['sendCommand']>[0], ...rest: unknown[]) => {
    sent.push(command.name);
    return (send as (...args: unknown[]) => unknown)(command, ...rest);
  };
  return { client, sent };
}
