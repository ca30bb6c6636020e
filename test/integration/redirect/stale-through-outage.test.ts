// Issue 30, finding 7: cached links answered 503 during a PostgreSQL cut that came after Redis
// returned from an outage (the return had dropped every cached link). Now a link an instance has
// seen keeps redirecting from its last known state while the database cannot answer — after a
// Redis gap, and past its cache time — unless an invalidation it received removed it.
//
// Two instances on one PostgreSQL schema share a Redis of this test's own (stopped and started
// again empty, as the finding's was) and reach PostgreSQL through a proxy the test cuts; a
// third, with a short cache time and a clock of the test's, has no Redis. SQLite has no outage to
// simulate (its database is a local file): its pass runs the same sequences without the cut, and
// checks that a Redis return costs no answer there; what the cache does when a read fails is
// engine-independent and tested on fakes (src/adapters/cache/stale-answers.test.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Clock } from '../../../src/core/shared/clock.ts';
import { ENGINES, startHarness, type Harness } from '../../support/harness.ts';
import { eventually } from '../../support/eventually.ts';
import { HAS_REDIS_SERVER, OwnRedis } from '../../support/redis-server.ts';
import { TcpProxy } from '../../support/tcp-proxy.ts';
import { testDatabaseUrl } from '../../support/test-database-url.ts';
import { assertPage, clickCounts, makeLink, redirectsTo, visit } from './redirect-support.ts';

const APP_HOST = 'short.test';
const DAY_MS = 86_400_000;
const LINKS = 10;
const VISITS = 1000;
/** The third instance's cache time. */
const TTL_MS = 1000;

/** expiration_date and expiration_time (UTC, the account's default zone) `days` from now. */
function expiry(days: number): { expiration_date: string; expiration_time: string } {
  const iso = new Date(Date.now() + days * DAY_MS).toISOString();
  return { expiration_date: iso.slice(0, 10), expiration_time: iso.slice(11, 16) };
}

/** Whether the instance's cache would answer this alias without a read (not doubted, not past its time). */
const held = (h: Harness, alias: string): boolean =>
  h.server.container.visits.source.peek(APP_HOST, alias) !== undefined;

for (const engine of ENGINES) {
  const skip = engine.skip ?? (HAS_REDIS_SERVER ? false : 'redis-server is not installed');
  describe(`cached links through a Redis gap and a database outage [${engine.name}]`, { skip }, () => {
    const cuts = engine.name === 'postgres';
    let redis: OwnRedis;
    let proxy: TcpProxy | null = null;
    let a: Harness;
    let b: Harness;
    /** A short cache time and the test's clock; no Redis. */
    let c: Harness;
    let offset = 0;
    const clock: Clock = { now: () => Date.now() + offset };
    const outageLines: string[] = [];
    /** Faults the instances report (the click writers' and webhooks' retries during the cut): kept, not printed. */
    const faults: unknown[] = [];

    /** What the database's failures look like to the instances; SQLite's file cannot be cut. */
    const cut = async () => void (await proxy?.cut());
    const restore = async () => void (await proxy?.restore());
    const until = (what: string, check: () => boolean | Promise<boolean>) =>
      eventually(what, check, { timeoutMs: 30_000, everyMs: 50 });

    /** Redis stops and starts again empty; resolves once every instance has doubted its cache. */
    const redisGap = async (doubted: Array<[Harness, string]>) => {
      await redis.stop();
      await redis.start();
      await until('both instances to have caught up after Redis returned', () =>
        doubted.every(([h, alias]) => !held(h, alias)),
      );
    };

    before(async () => {
      redis = await OwnRedis.start();
      const env: Record<string, string> = {
        REDIS_URL: redis.url,
        REDIS_PREFIX: 'stale:',
        CLICK_FLUSH_INTERVAL_MS: '100',
        // The first tier alone: the redirect snapshot, which would answer links never held, has its
        // own test (snapshot-through-outage.test.ts).
        SNAPSHOT_PATH: '',
      };
      const outageLog = (message: string) => void outageLines.push(message);
      const onError = (error: unknown) => void faults.push(error);
      if (cuts) {
        const direct = new URL(testDatabaseUrl());
        proxy = await TcpProxy.start({ host: direct.hostname, port: Number(direct.port || 5432) });
        const viaProxy = new URL(direct);
        viaProxy.host = `127.0.0.1:${proxy.port}`;
        env.DATABASE_URL = viaProxy.toString();
        a = await startHarness('postgres', { env, overrides: { outageLog, onError } });
        b = await startHarness('postgres', { env, pgSchema: a.pgSchema!, overrides: { outageLog, onError } });
        c = await startHarness('postgres', {
          env: { DATABASE_URL: env.DATABASE_URL, SNAPSHOT_PATH: '' },
          pgSchema: a.pgSchema!,
          overrides: { clock, outageLog, onError, tuning: { LINK_CACHE_TTL_MS: TTL_MS } },
        });
      } else {
        // One instance: a second one's SQLite file would be its own. Its writes are its own invalidations.
        a = await startHarness('sqlite', { env, overrides: { outageLog, onError } });
        b = a;
        c = await startHarness('sqlite', {
          env: { SNAPSHOT_PATH: '' },
          overrides: { clock, outageLog, onError, tuning: { LINK_CACHE_TTL_MS: TTL_MS } },
        });
      }
    });

    after(async () => {
      await restore();
      if (c !== a) await c?.close();
      if (b !== a) await b?.close();
      await a?.close();
      await proxy?.close();
      redis?.kill();
    });

    test('links visited before Redis went away keep redirecting when the database is cut after Redis returned', async () => {
      const { key } = await a.account();
      const links: Array<{ id: number; alias: string; url: string }> = [];
      for (let i = 0; i < LINKS; i++) links.push(await makeLink(a, key, { url: `https://example.com/known/${i}` }));
      const never = await makeLink(a, key, { url: 'https://example.com/never-visited' });
      for (const link of links) {
        for (const h of [a, b]) assert.equal(await redirectsTo(h, `/${link.alias}`), link.url);
      }

      await redisGap([a, b].flatMap((h) => links.map((l): [Harness, string] => [h, l.alias])));
      await cut();
      try {
        const statuses = new Map<string, number>();
        for (let i = 0; i < VISITS; i += 50) {
          const replies = await Promise.all(
            Array.from({ length: 50 }, async (_, j) => {
              const n = i + j;
              const link = links[n % LINKS]!;
              const res = await visit(n % 2 === 0 ? a : b, `/${link.alias}?n=${n}`);
              return { res, expected: `${link.url}?n=${n}` };
            }),
          );
          for (const { res, expected } of replies) {
            const seen =
              res.status === 302 && res.location === expected
                ? 'redirected'
                : `${res.status} ${res.location ?? res.text.slice(0, 80)}`;
            statuses.set(seen, (statuses.get(seen) ?? 0) + 1);
          }
        }
        assert.deepEqual(Object.fromEntries(statuses), { redirected: VISITS });
        // Counted for GET /metrics (linkpix_link_cache_stale_total): half the visits were this instance's.
        assert.equal(a.server.container.visits.source.counts.stale, cuts ? VISITS / 2 : 0);
        if (cuts) {
          // A link this instance never held has no last known state: the outage is the answer.
          assert.equal((await visit(a, `/${never.alias}`)).status, 503);
          assert.ok(
            outageLines.includes('the database cannot be read: cached links are answered from their last known state'),
            outageLines.join('\n'),
          );
        } else {
          assert.equal(await redirectsTo(a, `/${never.alias}`), 'https://example.com/never-visited');
        }
      } finally {
        await restore();
      }
      // Every click of the outage is written once the database is back, as usual, and once: two
      // visits of each link before, and the outage's.
      const written = async () =>
        (await Promise.all(links.map((l) => clickCounts(a, l.id)))).reduce((sum, n) => sum + n.human, 0);
      await until("the outage's clicks to be written", async () => (await written()) >= 2 * LINKS + VISITS);
      await b.server.container.visits.sink.flush();
      assert.equal(await written(), 2 * LINKS + VISITS);
      if (cuts) {
        // The first read that succeeds ends the stale answers (one a second tries).
        await until('the end of the stale answers to be told', async () => {
          await visit(a, `/${links[0]!.alias}`);
          return outageLines.some((l) => /links are read from the database again \(\d+ visits/.test(l));
        });
      }
    });

    test('a link disabled through the other instance is never answered from before: its disabled state, or 503', async () => {
      const { key } = await a.account();
      const seen = await makeLink(a, key, { url: 'https://example.com/disabled-and-seen' });
      const unseen = await makeLink(a, key, { url: 'https://example.com/disabled-unseen' });
      for (const link of [seen, unseen]) assert.equal(await redirectsTo(a, `/${link.alias}`), link.url);
      for (const link of [seen, unseen]) {
        const off = await b.request('PUT', `/api/v1/links/${link.id}`, { key, form: { disabled: 1 } });
        assert.equal(off.status, 200, off.text);
      }
      await until(
        'the invalidations to reach the first instance',
        () => !held(a, seen.alias) && !held(a, unseen.alias),
      );
      // Read again after the invalidation: its last known state is now the disabled one.
      assertPage(await visit(a, `/${seen.alias}`), 404, 'disabled');

      // A Redis gap doubts it again; the cut comes before it could be read.
      await redisGap([[a, seen.alias]]);
      await cut();
      try {
        assertPage(await visit(a, `/${seen.alias}`), 404, 'disabled');
        const res = await visit(a, `/${unseen.alias}`);
        if (cuts)
          assert.equal(res.status, 503, 'the invalidation received removed the redirect: nothing older is served');
        else assertPage(res, 404, 'disabled');
      } finally {
        await restore();
      }
      for (const link of [seen, unseen]) assertPage(await visit(a, `/${link.alias}`), 404, 'disabled');
    });

    test('a link merely past its cache time keeps redirecting through the cut, and its end date is still honoured', async () => {
      offset = 0;
      const { key } = await c.account();
      const plain = await makeLink(c, key, { url: 'https://example.com/past-its-time' });
      const ending = await makeLink(c, key, { url: 'https://example.com/ends-tomorrow', ...expiry(1) });
      for (const link of [plain, ending]) assert.equal(await redirectsTo(c, `/${link.alias}`), link.url);
      // Past its time (at most a TTL) and its extra time (a TTL more): the fast path no longer
      // answers them without a read. Waited rather than polled: a look within the extra time
      // would start a refresh.
      await new Promise((resolve) => setTimeout(resolve, 2 * TTL_MS + 100));
      assert.ok(!held(c, plain.alias) && !held(c, ending.alias));
      await cut();
      try {
        assert.equal(await redirectsTo(c, `/${plain.alias}`), plain.url);
        assert.equal(await redirectsTo(c, `/${ending.alias}`), ending.url);
        // Two days on: the end date passed while the database was away.
        offset = 2 * DAY_MS;
        assertPage(await visit(c, `/${ending.alias}`), 410, 'expired');
        assert.equal(await redirectsTo(c, `/${plain.alias}`), plain.url);
      } finally {
        offset = 0;
        await restore();
      }
    });
  });
}
