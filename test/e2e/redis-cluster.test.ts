/**
 * Two compiled server processes on one PostgreSQL schema and one redis-server of this test's own:
 * the API rate limit is one budget across both; with Redis stopped and started again under a
 * bounded load, every visit is answered (no 5xx), a click cap stays exact, a rotation keeps
 * turning, sign-in works, /health says degraded and then ok.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { cliAccountKey, isolatedPgUrl, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { HAS_REDIS_SERVER, OwnRedis } from '../support/redis-server.ts';
import { testDatabaseUrl } from '../support/test-database-url.ts';
import { PASSWORD, WebClient, signedUp } from '../support/web-client.ts';

const UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const CAP = 40;
const ROTATION = ['https://example.com/r0', 'https://example.com/r1', 'https://example.com/r2'];
const skip = !process.env.TEST_DATABASE_URL
  ? 'TEST_DATABASE_URL is not set'
  : HAS_REDIS_SERVER
    ? false
    : 'redis-server is not installed';

describe('two instances on PostgreSQL sharing a Redis that goes away', { skip }, () => {
  let redis: OwnRedis;
  let drop: () => Promise<void>;
  const servers: ServerProcess[] = [];

  before(async () => {
    redis = await OwnRedis.start();
    const db = await isolatedPgUrl(testDatabaseUrl());
    drop = db.drop;
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: `cluster${redis.port}:`,
      API_RATE_LIMIT: '20',
      CLICK_FLUSH_INTERVAL_MS: '200',
    };
    // One after the other: the first migrates the schema.
    for (let i = 0; i < 2; i++) servers.push(await startServerProcess(env));
  });

  after(async () => {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    redis?.kill();
    await drop?.();
  });

  const api = (s: ServerProcess, key: string, path: string, init: RequestInit = {}) =>
    fetch(`${s.base}/api/v1${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...init.headers },
    });
  const create = async (s: ServerProcess, key: string, form: string) => {
    const reply = await api(s, key, '/links', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    assert.equal(reply.status, 201, await reply.clone().text());
    return (await reply.json()).data as { id: number; alias: string };
  };
  const health = async (s: ServerProcess) =>
    (await fetch(`${s.base}/health`)).json() as Promise<Record<string, string>>;
  const healthIs = async (status: string) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const all = await Promise.all(servers.map(health));
      if (all.every((h) => h.status === status)) return all;
      if (Date.now() > deadline) assert.fail(`health never became ${status}: ${JSON.stringify(all)}`);
      await sleep(100);
    }
  };

  test('the API rate limit of 20 holds across both instances together', async () => {
    const key = await cliAccountKey(servers[0]!.env, 'limit@example.com');
    const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => api(servers[i % 2]!, key, '/links')));
    const statuses = replies.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 20, statuses.join(' '));
    assert.equal(statuses.filter((s) => s === 429).length, 20);
  });

  test('Redis stopped and started under load: no 5xx, the cap exact, the rotation turning, sign-in working, health degraded then ok', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const key = await cliAccountKey(a.env, 'outage@example.com');
    const capped = await create(a, key, `url=https%3A%2F%2Fexample.com%2Fcapped&expiration_clicks=${CAP}`);
    const rotation = await create(
      a,
      key,
      `url=https%3A%2F%2Fexample.com%2F&target_type=4&${ROTATION.map((u, i) => `rotation[${i}][value]=${encodeURIComponent(u)}`).join('&')}`,
    );
    const { email } = await signedUp(a.base);
    assert.deepEqual(await healthIs('ok'), [
      { status: 'ok', database: 'up', redis: 'up' },
      { status: 'ok', database: 'up', redis: 'up' },
    ]);

    const answers: { alias: string; status: number; location: string | null }[] = [];
    let turn = 0;
    const visit = async (alias: string) => {
      const s = servers[turn++ % 2]!;
      const reply = await fetch(`${s.base}/${alias}`, {
        redirect: 'manual',
        headers: { 'user-agent': UA, accept: 'text/html' },
      });
      await reply.arrayBuffer();
      answers.push({ alias, status: reply.status, location: reply.headers.get('location') });
    };
    // A bounded load: four visitors at a time, each round a capped and a rotating visit.
    const load = async (rounds: number) => {
      for (let r = 0; r < rounds; r++)
        await Promise.all(Array.from({ length: 4 }, (_, i) => visit(i % 2 === 0 ? capped.alias : rotation.alias)));
    };

    await load(5);
    await redis.stop();
    const during = load(15);
    assert.deepEqual(await healthIs('degraded'), [
      { status: 'degraded', database: 'up', redis: 'down' },
      { status: 'degraded', database: 'up', redis: 'down' },
    ]);
    const signIn = await new WebClient(b.base).post('/login', { email, password: PASSWORD }, { from: '/login' });
    assert.equal(signIn.status, 303, 'sign-in works without Redis');
    await create(b, key, 'url=https%3A%2F%2Fexample.com%2Fduring');
    await during;
    await redis.start();
    await healthIs('ok');
    await load(15);

    const errors = answers.filter((x) => x.status >= 500);
    assert.deepEqual(errors, [], 'no 5xx');
    const reached = answers.filter((x) => x.alias === capped.alias && x.location === 'https://example.com/capped');
    const expired = answers.filter((x) => x.alias === capped.alias && x.status === 410);
    assert.equal(
      reached.length,
      CAP,
      'exactly the cap reached the destination: ' +
        answers
          .filter((x) => x.alias === capped.alias)
          .map((x) => x.status)
          .join(' '),
    );
    assert.equal(reached.length + expired.length, answers.filter((x) => x.alias === capped.alias).length);
    const rotated = answers.filter((x) => x.alias === rotation.alias);
    for (const x of rotated) assert.ok(x.status === 302 && ROTATION.includes(x.location!), JSON.stringify(x));
    for (const url of ROTATION)
      assert.ok(rotated.filter((x) => x.location === url).length >= rotated.length / 3 - 3, `${url} had its turns`);

    // The clicks written agree with the cap (a few reads: the key's API budget is 20).
    let clicks = -1;
    for (let i = 0; i < 10 && clicks !== CAP; i++) {
      await sleep(500);
      clicks = (await (await api(b, key, `/links/${capped.id}`)).json()).data.clicks;
    }
    assert.equal(clicks, CAP);
    for (const s of servers) assert.doesNotMatch(s.output(), /programmer error|Unhandled error event/);
  });
});
