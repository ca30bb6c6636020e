// The ClickFeed contract on Redis (two instances, each with its own connection), and the feed's
// subscriber surviving a Redis restart. An unreachable shared Redis fails these tests.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import type { ClickTally } from '../../../src/core/live/click-feed.ts';
import { RedisClickFeed } from '../../../src/adapters/live/redis-click-feed.ts';
import { describeClickFeedContract } from '../../contracts/click-feed-contract.ts';
import { eventually } from '../../support/eventually.ts';
import { HAS_REDIS_SERVER, OwnRedis } from '../../support/redis-server.ts';
import { redisPair, subscribers } from '../../support/redis-pair.ts';

const quiet = () => {};

describe('RedisClickFeed on the shared Redis', () => {
  const pair = redisPair((redis, options) => new RedisClickFeed(redis, options), 'live-clicks');

  describeClickFeedContract('RedisClickFeed, two instances', () => ({ ...pair(), ready: () => Promise.resolve() }));

  test('one subscriber connection per instance, however many listen', async () => {
    const { b, serverA, channel } = pair();
    const offs = Array.from({ length: 20 }, (_, i) => b.subscribe(100 + i, quiet));
    const [, n] = (await serverA.pubsub('NUMSUB', channel)) as [string, number];
    assert.equal(Number(n), 2);
    for (const off of offs) off();
  });
});

describe(
  'RedisClickFeed through a Redis restart',
  { skip: HAS_REDIS_SERVER ? false : 'redis-server is not installed here' },
  () => {
    test('the subscriber subscribes again once Redis is back, and tallies flow again', async () => {
      const own = await OwnRedis.start();
      const publisher = new Redis(own.url, { maxRetriesPerRequest: 1, retryStrategy: () => 50 });
      const listener = new Redis(own.url, { maxRetriesPerRequest: 1, retryStrategy: () => 50 });
      publisher.on('error', quiet);
      listener.on('error', quiet);
      const from = new RedisClickFeed(publisher, { onError: quiet });
      const to = new RedisClickFeed(listener, { onError: quiet });
      try {
        const heard: ClickTally[] = [];
        to.subscribe(5, (t) => heard.push(t));
        await subscribers(publisher, 1, 'linkpix:live-clicks');
        from.publish([{ accountId: 5, clicks: 1, links: { 1: 1 } }]);
        await eventually('heard before the restart', () => heard.length === 1);
        await own.stop();
        await own.start();
        await eventually('the publisher is back', () => publisher.status === 'ready');
        await subscribers(publisher, 1, 'linkpix:live-clicks');
        from.publish([{ accountId: 5, clicks: 2, links: { 1: 2 } }]);
        await eventually('heard after the restart', () => heard.length === 2);
        assert.equal(heard[1]!.clicks, 2);
      } finally {
        await from.close();
        await to.close();
        publisher.disconnect();
        listener.disconnect();
        await own.stop();
      }
    });
  },
);
