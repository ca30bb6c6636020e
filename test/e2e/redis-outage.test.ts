/**
 * The compiled server with REDIS_URL, against a redis-server of its own on a free port (never
 * the shared one), stopped and started again under it: the process stays up, plain links keep
 * redirecting, capped links count in the database, /health says degraded, the outage is logged
 * once (not once per reconnection or per visit), and Redis is used again once it is back,
 * without a restart.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cliAccountKey,
  freePort,
  startServerProcess,
  waitForOutput,
  type ServerProcess,
} from '../support/processes.ts';

const UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const HAS_REDIS = spawnSync('redis-server', ['--version']).status === 0;

describe(
  'a Redis outage under the running server',
  { skip: HAS_REDIS ? false : 'redis-server is not installed' },
  () => {
    let dir: string;
    let redisPort: number;
    let redis: ChildProcess | null = null;
    let server: ServerProcess;
    let child: ChildProcess;
    let base: string;
    let key: string;

    const startRedis = async () => {
      redis = spawn('redis-server', [
        '--port',
        String(redisPort),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--daemonize',
        'no',
      ]);
      await waitForOutput(redis, /Ready to accept connections/);
    };
    const stopRedis = async () => {
      const stopping = redis!;
      redis = null;
      const exited = new Promise((resolve) => stopping.once('exit', resolve));
      stopping.kill('SIGTERM');
      await exited;
    };
    const visit = (alias: string) =>
      fetch(`${base}/${alias}`, { redirect: 'manual', headers: { 'user-agent': UA, accept: 'text/html' } });
    const create = (body: string) =>
      fetch(`${base}/api/v1/links`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body,
      });
    const alive = () => assert.equal(child.exitCode, null, `the server exited; output:\n${server.output()}`);
    const count = (pattern: RegExp) =>
      server
        .output()
        .split('\n')
        .filter((line) => pattern.test(line)).length;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'linkpix-redis-outage-'));
      redisPort = await freePort();
      await startRedis();
      server = await startServerProcess({
        DATABASE_URL: `sqlite:${join(dir, 'redis-outage.db')}`,
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        REDIS_PREFIX: `outage${redisPort}:`,
      });
      ({ child, base } = server);
      key = await cliAccountKey(server.env, 'redis@example.com');
    });

    after(() => {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      redis?.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });

    test('Redis stopped: no crash, no spam, plain and capped links redirect, the API writes; back: Redis counts again', async () => {
      assert.equal((await create('url=https%3A%2F%2Fexample.com%2Fplain&alias=plain')).status, 201);
      assert.equal(
        (await create('url=https%3A%2F%2Fexample.com%2Fcapped&alias=capped&expiration_clicks=1000')).status,
        201,
      );
      assert.equal((await visit('plain')).status, 302);
      assert.equal((await visit('capped')).status, 302);
      const doomed = await create('url=https%3A%2F%2Fexample.com%2Fdoomed&alias=doomed');
      const doomedId = (await doomed.json()).data.id as number;

      await stopRedis();
      // Long enough for several reconnection attempts, each an 'error' on the client.
      await new Promise((r) => setTimeout(r, 3000));
      alive();
      for (let i = 0; i < 10; i++) assert.equal((await visit('plain')).status, 302, `plain visit ${i}`);
      // The cap is counted in the database meanwhile (docs/design/caps.md).
      assert.equal((await visit('capped')).status, 302);
      // An API write publishes an invalidation that cannot go out; the write itself succeeds.
      assert.equal((await create('url=https%3A%2F%2Fexample.com%2Fduring&alias=during')).status, 201);
      // A delete also forgets the link's count in Redis: the database's delete stands and is answered.
      const deleted = await fetch(`${base}/api/v1/links/${doomedId}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
      });
      assert.equal(deleted.status, 200, await deleted.text());
      const health = await fetch(`${base}/health`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: 'degraded', database: 'up', redis: 'down' });
      alive();
      assert.equal(count(/lost the connection to Redis/), 1, server.output());
      assert.equal(count(/Unhandled error event/), 0, server.output());
      assert.equal(count(/redirect failed/), 0, server.output());

      await startRedis();
      const deadline = Date.now() + 15_000;
      while (!/connected to Redis again/.test(server.output()) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      assert.match(server.output(), /connected to Redis again/);
      assert.equal((await visit('capped')).status, 302);
      assert.equal((await visit('during')).status, 302);
      assert.deepEqual(await (await fetch(`${base}/health`)).json(), { status: 'ok', database: 'up', redis: 'up' });
      assert.doesNotMatch(server.output(), /programmer error/);
      alive();

      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      assert.equal(await exited, 0, server.output());
    });
  },
);
