// api.md §7 steps 3 and 5 across instances: two servers on one PostgreSQL schema and one Redis
// keep the click cap exact and the rotation balanced. Redis must be reachable: an unreachable
// Redis fails these tests, since a skip would hide that the shared state was never exercised.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { startHarness, type Harness } from '../../support/harness.ts';
import { UA, clickCounts, makeLink, readLink, redirectsTo, visit } from './redirect-support.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `linkpix-test:${randomUUID()}:`;

/** Runs `n` requests at once, alternating between the two instances. */
function split<T>(n: number, a: () => Promise<T>, b: () => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => (i % 2 === 0 ? a() : b())));
}

describe(
  'redirect: two instances sharing PostgreSQL and Redis',
  {
    skip: process.env.TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set: the PostgreSQL run did not happen',
  },
  () => {
    let redis: Redis;
    let a: Harness;
    let b: Harness;

    before(async () => {
      redis = new Redis(REDIS_URL, {
        lazyConnect: true,
        connectTimeout: 2000,
        maxRetriesPerRequest: 1,
        retryStrategy: () => null,
      });
      let lastError: unknown = null;
      redis.on('error', (error) => void (lastError = error));
      try {
        await redis.connect();
        assert.equal(await redis.ping(), 'PONG');
      } catch (error) {
        throw new Error(`Redis is not reachable at ${REDIS_URL} (set TEST_REDIS_URL): ${String(lastError ?? error)}`);
      }
      const env = { REDIS_URL, REDIS_PREFIX: PREFIX };
      a = await startHarness('postgres', { env });
      b = await startHarness('postgres', { env, pgSchema: a.pgSchema! });
    });

    after(async () => {
      await b?.close();
      await a?.close();
      if (redis?.status === 'ready') {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${PREFIX}*`, 'COUNT', 500);
          cursor = next;
          if (keys.length > 0) await redis.del(...keys);
        } while (cursor !== '0');
      }
      redis?.disconnect();
    });

    const flushBoth = async () => {
      await a.server.container.visits.sink.flush();
      await b.server.container.visits.sink.flush();
    };

    test('both instances serve the same links, and keep their state under the configured prefix', async () => {
      const { key } = await a.account();
      const link = await makeLink(a, key, { url: 'https://example.com/both', expiration_clicks: 5 });
      assert.equal(await redirectsTo(a, `/${link.alias}`), 'https://example.com/both');
      assert.equal(await redirectsTo(b, `/${link.alias}`), 'https://example.com/both');
      assert.equal(await redis.get(`${PREFIX}quota:${link.id}`), '2');
      assert.equal(await redis.exists(`linkpix:quota:${link.id}`), 0, 'the default prefix was used');
    });

    test('a cap of 30 hit by 120 concurrent visits over both instances lets exactly 30 through', async () => {
      const { key } = await a.account();
      const link = await makeLink(a, key, { url: 'https://example.com/capped', expiration_clicks: 30 });
      const path = `/${link.alias}`;
      const replies = await split(
        120,
        () => visit(a, path),
        () => visit(b, path),
      );
      const through = replies.filter((r) => r.status === 302 && r.location === 'https://example.com/capped');
      assert.equal(through.length, 30, JSON.stringify(replies.map((r) => r.status)));
      assert.equal(replies.filter((r) => r.status === 410).length, 90);
      // Both instances served some of the 30 (each took 60 requests, so neither could take all).
      const servedByA = replies.filter((r, i) => i % 2 === 0 && r.status === 302).length;
      assert.ok(servedByA > 0 && servedByA < 30, `instance A served ${servedByA}`);
      // Bots and HEAD use no click, but both instances now tell them the link has expired.
      for (const h of [a, b]) {
        assert.equal((await visit(h, path, { 'user-agent': UA.googlebot })).status, 410);
        assert.equal((await visit(h, path, {}, 'HEAD')).status, 410);
      }

      await flushBoth();
      assert.deepEqual(await clickCounts(a, link.id), { human: 30, bot: 0 });
      assert.equal((await readLink(a, key, link.id)).clicks, 30);
      assert.equal((await readLink(b, key, link.id)).clicks, 30);
      assert.equal((await visit(b, path)).status, 410);
      assert.equal((await visit(a, path)).status, 410);
    });

    test('rotation stays an exact round-robin across instances', async () => {
      const { key } = await a.account();
      const list = ['https://r0.example.com/', 'https://r1.example.com/', 'https://r2.example.com/'];
      const link = await makeLink(a, key, {
        url: 'https://example.com/',
        target_type: 4,
        rotation: list.map((value) => ({ value })),
      });
      const path = `/${link.alias}`;
      const served = await split(
        61,
        () => redirectsTo(a, path),
        () => redirectsTo(b, path),
      );
      const counts = list.map((u) => served.filter((s) => s === u).length);
      assert.equal(
        counts.reduce((x, y) => x + y, 0),
        61,
      );
      for (const c of counts) assert.ok(c === 20 || c === 21, `counts ${counts.join(',')}`);

      // Sequentially, alternating instances: the next entry every time.
      const walk: string[] = [];
      for (let i = 0; i < 6; i++) walk.push(await redirectsTo(i % 2 === 0 ? a : b, path));
      const start = list.indexOf(walk[0]!);
      assert.deepEqual(
        walk,
        walk.map((_, i) => list[(start + i) % 3]),
      );
      await flushBoth();
      assert.equal((await clickCounts(a, link.id)).human, 67);
    });

    test('an edit made through one instance reaches the other', async () => {
      const { key } = await a.account();
      const link = await makeLink(a, key, { url: 'https://example.com/before' });
      // Both instances now hold the link in their caches.
      assert.equal(await redirectsTo(a, `/${link.alias}`), 'https://example.com/before');
      assert.equal(await redirectsTo(b, `/${link.alias}`), 'https://example.com/before');
      const put = await a.request('PUT', `/api/v1/links/${link.id}`, {
        key,
        form: { url: 'https://example.com/after' },
      });
      assert.equal(put.status, 200, put.text);
      assert.equal(await redirectsTo(a, `/${link.alias}`), 'https://example.com/after');
      // Pub/sub is asynchronous: poll, bounded well below the cache's lifetime (30 s).
      let seen = '';
      for (let i = 0; i < 200 && seen !== 'https://example.com/after'; i++) {
        seen = await redirectsTo(b, `/${link.alias}`);
        if (seen !== 'https://example.com/after') await new Promise((r) => setImmediate(r));
      }
      assert.equal(seen, 'https://example.com/after');
    });
  },
);
