// Issue 50: redirects that outlive the database. An instance keeps a snapshot of every enabled
// link on disk; with PostgreSQL cut (a proxy on loopback), a link it never held redirects from
// the snapshot as it did before, one changed after the snapshot was written answers 503, and
// /health says the redirects come from the snapshot.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { POSTGRES_SKIP, startHarness, type Harness } from '../../support/harness.ts';
import { HAS_REDIS_SERVER, OwnRedis } from '../../support/redis-server.ts';
import { TcpProxy } from '../../support/tcp-proxy.ts';
import { testDatabaseUrl } from '../../support/test-database-url.ts';
import { makeLink, redirectsTo, visit } from './redirect-support.ts';

describe('the redirect snapshot through a PostgreSQL cut', { skip: POSTGRES_SKIP ?? false }, () => {
  let proxy: TcpProxy;
  let a: Harness;
  let dir: string;
  const outageLines: string[] = [];
  const faults: unknown[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkpix-snapshot-it-'));
    const direct = new URL(testDatabaseUrl());
    proxy = await TcpProxy.start({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(direct);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    a = await startHarness('postgres', {
      env: {
        DATABASE_URL: viaProxy.toString(),
        SNAPSHOT_PATH: join(dir, 'a.snapshot'),
        CLICK_FLUSH_INTERVAL_MS: '100',
      },
      overrides: { outageLog: (m) => void outageLines.push(m), onError: (e) => void faults.push(e) },
    });
  });

  after(async () => {
    await proxy?.restore();
    await a?.close();
    await proxy?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('links never visited redirect from the snapshot; one changed after it answers 503; /health says so', async () => {
    const { key } = await a.account();
    const unseen = await makeLink(a, key, { url: 'https://example.com/unseen' });
    const edited = await makeLink(a, key, { url: 'https://example.com/before-edit' });
    const rotating = await makeLink(a, key, {
      url: 'https://example.com/fallback',
      rules: JSON.stringify([{ when: {}, url: 'https://example.com/by-rule' }]),
    });
    await a.server.container.visits.snapshot!.writer.round();
    const edit = await a.request('PATCH', `/api/v1/links/${edited.id}`, {
      key,
      form: { url: 'https://example.com/after-edit' },
    });
    assert.equal(edit.status, 200, edit.text);

    await proxy.cut();
    try {
      for (let i = 0; i < 3; i++) {
        assert.equal(await redirectsTo(a, `/${unseen.alias}?n=${i}`), `https://example.com/unseen?n=${i}`);
      }
      assert.equal(await redirectsTo(a, `/${rotating.alias}`), 'https://example.com/by-rule', 'its rules compiled');
      const changed = await visit(a, `/${edited.alias}`);
      assert.equal(changed.status, 503, 'changed after the snapshot: never its old state');
      const health = await a.request('GET', '/health');
      assert.equal(health.status, 503);
      assert.equal(health.body.database, 'down');
      assert.equal(health.body.redirects, 'snapshot');
      assert.equal(health.body.status, 'unavailable');
      const api = await a.request('GET', '/api/v1/links', { key });
      assert.equal(api.status, 503);
    } finally {
      await proxy.restore();
    }
    assert.equal(await redirectsTo(a, `/${edited.alias}`), 'https://example.com/after-edit');
  });

  test('an instance started during the cut serves the snapshot; its API answers 503; the database back, it says so', async () => {
    const { key } = await a.account();
    const link = await makeLink(a, key, { url: 'https://example.com/restarted' });
    const locked = await makeLink(a, key, { url: 'https://example.com/locked', password: 'open sesame' });
    await a.server.container.visits.snapshot!.writer.round();
    await proxy.cut();
    let b: Harness | null = null;
    try {
      b = await startHarness('postgres', {
        env: {
          DATABASE_URL: a.config.DATABASE_URL,
          SNAPSHOT_PATH: join(dir, 'a.snapshot'),
          CLICK_FLUSH_INTERVAL_MS: '100',
        },
        pgSchema: a.pgSchema!,
        overrides: { outageLog: (m) => void outageLines.push(m), onError: (e) => void faults.push(e) },
      });
      assert.ok(b.server.databaseBack, 'started from the snapshot');
      for (let i = 0; i < 3; i++) {
        assert.equal(await redirectsTo(b, `/${link.alias}?n=${i}`), `https://example.com/restarted?n=${i}`);
      }
      const page = await visit(b, `/${locked.alias}`);
      assert.equal(page.status, 200, 'the password page, from the snapshot');
      assert.match(page.text, /password/i);
      const api = await b.request('GET', '/api/v1/links', { key });
      assert.equal(api.status, 503);
      assert.match(api.body.message, /database is unavailable/i);
      const health = await b.request('GET', '/health');
      assert.equal(health.status, 503);
      assert.equal(health.body.redirects, 'snapshot');
      await proxy.restore();
      await b.server.databaseBack;
    } finally {
      await proxy.restore();
      await b?.close();
    }
  });

  test(
    'with Redis too: the snapshot answers with Redis up and down; a capped link answers 503, its cap never passed',
    {
      skip: HAS_REDIS_SERVER ? false : 'redis-server is not installed',
    },
    async () => {
      const redis = await OwnRedis.start();
      let c: Harness | null = null;
      try {
        c = await startHarness('postgres', {
          env: {
            DATABASE_URL: a.config.DATABASE_URL,
            SNAPSHOT_PATH: join(dir, 'c.snapshot'),
            REDIS_URL: redis.url,
            REDIS_PREFIX: 'snapshot:',
            CLICK_FLUSH_INTERVAL_MS: '100',
          },
          pgSchema: a.pgSchema!,
          overrides: { outageLog: (m) => void outageLines.push(m), onError: (e) => void faults.push(e) },
        });
        const { key } = await c.account();
        const plain = await makeLink(c, key, { url: 'https://example.com/plain' });
        const capped = await makeLink(c, key, { url: 'https://example.com/capped', expiration_clicks: 5 });
        await c.server.container.visits.snapshot!.writer.round();
        await proxy.cut();
        try {
          assert.equal(await redirectsTo(c, `/${plain.alias}?r=up`), 'https://example.com/plain?r=up', 'Redis up');
          await redis.stop();
          assert.equal(
            await redirectsTo(c, `/${plain.alias}?r=down`),
            'https://example.com/plain?r=down',
            'Redis down',
          );
          assert.equal((await visit(c, `/${capped.alias}`)).status, 503, 'a cap with neither the database nor Redis');
          const health = await c.request('GET', '/health');
          assert.deepEqual([health.status, health.body.redis, health.body.redirects], [503, 'down', 'snapshot']);
        } finally {
          await proxy.restore();
        }
      } finally {
        await c?.close();
        redis.kill();
      }
    },
  );
});
