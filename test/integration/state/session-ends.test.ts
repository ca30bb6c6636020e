// The SessionEnds contract on Redis: two instances, each with its own connection, on the shared
// Redis (an unreachable one fails these tests).
import { describe } from 'node:test';
import { RedisSessionEnds } from '../../../src/adapters/live/redis-session-ends.ts';
import { describeSessionEndsContract } from '../../contracts/session-ends-contract.ts';
import { redisPair } from '../../support/redis-pair.ts';

describe('RedisSessionEnds on the shared Redis', () => {
  const pair = redisPair((redis, options) => new RedisSessionEnds(redis, options), 'live-session-ends');
  describeSessionEndsContract('RedisSessionEnds, two instances', () => pair());
});
