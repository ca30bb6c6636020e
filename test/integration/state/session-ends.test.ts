// The SessionEnds contract on Redis: two instances, each with its own connection, on the shared
// Redis (an unreachable one fails these tests).
import { after, before, describe } from 'node:test';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisSessionEnds } from '../../../src/adapters/live/redis-session-ends.ts';
import { describeSessionEndsContract } from '../../contracts/session-ends-contract.ts';
import { eventually } from '../../support/eventually.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `linkpix-test:${randomUUID()}:`;
const quiet = () => {};

describe('RedisSessionEnds on the shared Redis', () => {
  let serverA: Redis;
  let serverB: Redis;
  let a: RedisSessionEnds;
  let b: RedisSessionEnds;

  before(async () => {
    serverA = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    serverB = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    serverA.on('error', quiet);
    serverB.on('error', quiet);
    await Promise.all([serverA.ping(), serverB.ping()]);
    a = new RedisSessionEnds(serverA, { prefix, onError: quiet });
    b = new RedisSessionEnds(serverB, { prefix, onError: quiet });
    // Each instance's one subscriber connection, opened by its first listener.
    a.subscribe(0, quiet);
    b.subscribe(0, quiet);
    await eventually('both subscribers listen', async () => {
      const [, n] = (await serverA.pubsub('NUMSUB', `${prefix}live-session-ends`)) as [string, number];
      return Number(n) >= 2;
    });
  });

  after(async () => {
    await a?.close();
    await b?.close();
    serverA?.disconnect();
    serverB?.disconnect();
  });

  describeSessionEndsContract('RedisSessionEnds, two instances', () => ({ a, b }));
});
