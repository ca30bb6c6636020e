/**
 * A link's weighted split across two instances of the compiled server behind nginx, on
 * PostgreSQL and Redis (docs/api.md §18, docs/design/rules.md): each new visitor's draw is independent,
 * so over many distinct visitors the shares stay within 3 points of the weights whichever
 * instance answers, and a visitor keeps their variant (its cookie) on every instance.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hasNginx, NGINX, startCluster, type Cluster } from '../support/cluster.ts';
import { cliAccountKey, isolatedPgUrl } from '../support/processes.ts';
import { OwnRedis } from '../support/redis-server.ts';
import { BROWSER_UA } from '../support/visit-load.ts';
import { POSTGRES_SKIP } from '../support/harness.ts';
import { testDatabaseUrl } from '../support/test-database-url.ts';

const VISITORS = 4000;
const AT_ONCE = 16;
const SPLIT = [
  { url: 'https://x.example/', weight: 70 },
  { url: 'https://y.example/', weight: 30 },
];

const go = (url: string, cookie?: string) =>
  fetch(url, {
    redirect: 'manual',
    headers: { 'user-agent': BROWSER_UA, accept: 'text/html', ...(cookie === undefined ? {} : { cookie }) },
  });

describe('a split across two instances behind nginx', { skip: POSTGRES_SKIP ?? false }, () => {
  let schema: { url: string; drop(): Promise<void> };
  let redis: OwnRedis;
  let cluster: Cluster;
  let alias: string;

  before(async () => {
    assert.ok(hasNginx(), `nginx is not installed at ${NGINX}: apt-get install -y nginx`);
    schema = await isolatedPgUrl(testDatabaseUrl());
    redis = await OwnRedis.start();
    cluster = await startCluster({
      instances: 2,
      databaseUrl: schema.url,
      redisUrl: redis.url,
      env: { TITLE_FETCH: 'false', LOG_LEVEL: 'info' },
    });
    const key = await cliAccountKey({ DATABASE_URL: schema.url }, 'split@example.com');
    const res = await fetch(`${cluster.url}/api/v1/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/', alias: 'split', rules: [{ when: {}, split: SPLIT }] }),
    });
    assert.equal(res.status, 201, await res.text());
    alias = 'split';
  });

  after(async () => {
    cluster?.kill();
    redis?.kill();
    await schema?.drop();
  });

  test(`${VISITORS} new visitors, half to each instance: the shares within 3 points of 70/30`, async () => {
    const seen = new Map<string, number>();
    const perInstance = cluster.instances.map(() => new Map<string, number>());
    let next = 0;
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        while (next < VISITORS) {
          const n = next++;
          const i = n % cluster.instances.length;
          const res = await go(`${cluster.instances[i]!.base}/${alias}`);
          await res.arrayBuffer();
          assert.equal(res.status, 302);
          const to = res.headers.get('location')!;
          seen.set(to, (seen.get(to) ?? 0) + 1);
          perInstance[i]!.set(to, (perInstance[i]!.get(to) ?? 0) + 1);
        }
      }),
    );
    assert.deepEqual(
      [...seen.keys()].sort(),
      SPLIT.map((v) => v.url),
    );
    for (const v of SPLIT) {
      const share = (100 * seen.get(v.url)!) / VISITORS;
      assert.ok(Math.abs(share - v.weight) <= 3, `${v.url}: ${share.toFixed(1)} % for a weight of ${v.weight}`);
    }
    for (const counts of perInstance) assert.equal(counts.size, 2, 'each instance draws both variants');
  });

  test('a visitor keeps their variant on the other instance and through nginx, and is not drawn again', async () => {
    for (let k = 0; k < 40; k++) {
      const first = await go(`${cluster.instances[k % 2]!.base}/${alias}`);
      await first.arrayBuffer();
      const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
      const variant = first.headers.get('location');
      for (const base of [cluster.instances[(k + 1) % 2]!.base, cluster.url, cluster.url]) {
        const again = await go(`${base}/${alias}`, cookie);
        await again.arrayBuffer();
        assert.equal(again.status, 302);
        assert.equal(again.headers.get('location'), variant, `visitor ${k} on ${base}`);
        assert.equal(again.headers.get('set-cookie'), null, 'the cookie is not renewed');
      }
    }
  });
});
