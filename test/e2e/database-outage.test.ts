/**
 * The compiled server on PostgreSQL, through a TCP proxy the test can cut, named in
 * pg_stat_activity by its own application_name (the `test` database is shared: only this
 * server's sessions are ever terminated). Its connections are ended the two ways production
 * ends them — pg_terminate_backend (a restart, a failover, idle_session_timeout) and a cut
 * network — and the process must stay up, answer, and write every click it answered.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { cliAccountKey, isolatedPgUrl, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { TcpProxy } from '../support/tcp-proxy.ts';
import { eventually } from '../support/eventually.ts';
import { POSTGRES_SKIP } from '../support/harness.ts';
import { testDatabaseUrl } from '../support/test-database-url.ts';

const UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const OUTAGE_CLICKS = 40;

describe('a PostgreSQL outage under the running server', { skip: POSTGRES_SKIP ?? false }, () => {
  const appName = `lp_outage_${randomBytes(4).toString('hex')}`;
  let proxy: TcpProxy;
  let schema: { url: string; drop(): Promise<void> };
  let admin: pg.Client;
  let server: ServerProcess;
  let child: ChildProcess;
  let base: string;
  let key: string;
  let linkId: number;

  const api = (path: string) =>
    fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}`, accept: 'application/json' } });
  const visit = (i: number) =>
    fetch(`${base}/outage?n=${i}`, { redirect: 'manual', headers: { 'user-agent': UA, accept: 'text/html' } });
  const stored = async () => {
    const counter = await admin.query<{ clicks: number }>(
      'select (clicks + coalesce((select p.clicks from link_click_counts p where p.link_id = links.id), 0))::int as clicks from links where id = $1',
      [linkId],
    );
    const rows = await admin.query<{ n: number }>('select count(*)::int as n from clicks where link_id = $1', [linkId]);
    return { counter: counter.rows[0]!.clicks, rows: rows.rows[0]!.n };
  };
  const until = (what: string, check: () => Promise<boolean>) =>
    eventually(what, check, { timeoutMs: 20_000, everyMs: 100, explain: () => `server output:\n${server.output()}` });
  const alive = () => assert.equal(child.exitCode, null, `the server exited; output:\n${server.output()}`);

  before(async () => {
    schema = await isolatedPgUrl(testDatabaseUrl());
    const target = new URL(schema.url);
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    admin = new pg.Client({ connectionString: schema.url });
    await admin.connect();
    // linkpix's own sessions go through the proxy, named so that only they are terminated.
    const viaProxy = new URL(schema.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    viaProxy.searchParams.set('application_name', appName);
    server = await startServerProcess({ DATABASE_URL: viaProxy.toString(), CLICK_FLUSH_INTERVAL_MS: '200' });
    ({ child, base } = server);
    key = await cliAccountKey(server.env, 'outage@example.com');
    const created = await fetch(`${base}/api/v1/links`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'url=https%3A%2F%2Fexample.com%2Foutage&alias=outage',
    });
    assert.equal(created.status, 201, await created.clone().text());
    linkId = (await created.json()).data.id as number;
  });

  after(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await proxy?.close();
    await admin?.end();
    await schema?.drop();
  });

  test('pg_terminate_backend on every session of the server: it stays up, and the next 10 API calls answer 200', async () => {
    // Every connection of the pool open and idle, as after a busy moment.
    await Promise.all(Array.from({ length: 10 }, () => api('/api/v1/links')));
    // In the select list, so that it runs for this server's sessions only (a WHERE clause may
    // evaluate its terms in any order).
    const ended = await admin.query<{ pid: number }>(
      'select pid, pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()',
      [appName],
    );
    assert.ok(ended.rows.length >= 1, 'no session of the server was found to terminate');
    // At once, as a client would: no waiting for the server to notice.
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await api('/api/v1/links')).status);
    assert.deepEqual(statuses, Array(10).fill(200), server.output());
    const health = await fetch(`${base}/health`);
    assert.equal(health.status, 200);
    alive();
  });

  test('a cut network: cached links redirect, /health and the API answer 503; restored: 200 and every click written', async () => {
    assert.equal((await visit(0)).status, 302); // the link is cached now
    // Its row goes with the batch, its counter with the window written after it (docs/design/clicks.md).
    await until('the first click to be written and counted', async () => {
      const first = await stored();
      return first.rows === 1 && first.counter === 1;
    });
    const before = await stored();

    await proxy.cut();
    for (let i = 1; i <= OUTAGE_CLICKS; i++) {
      const res = await visit(i);
      assert.equal(res.status, 302, `visit ${i} during the outage`);
      assert.equal(res.headers.get('location'), `https://example.com/outage?n=${i}`);
    }
    const health = await fetch(`${base}/health`);
    assert.equal(health.status, 503);
    const healthBody = await health.json();
    assert.equal(healthBody.database, 'down');
    assert.match(healthBody.message, /database/i);
    const listed = await api('/api/v1/links');
    assert.equal(listed.status, 503);
    assert.match(listed.headers.get('content-type') ?? '', /application\/json/);
    const body = await listed.json();
    assert.equal(body.status, 503);
    assert.match(body.message, /database is unavailable/i);
    // Some retries of the click batch have failed meanwhile; the process is still here.
    await new Promise((r) => setTimeout(r, 1500));
    alive();

    await proxy.restore();
    assert.equal((await api('/api/v1/links')).status, 200);
    assert.equal((await fetch(`${base}/health`)).status, 200);
    // The rows go with their batch; the counter with the window written after it, or retried a
    // second later should a connection of the pool not have come back yet.
    await until("the outage's clicks to be written and counted", async () => {
      const now = await stored();
      return now.rows >= before.rows + OUTAGE_CLICKS && now.counter >= before.counter + OUTAGE_CLICKS;
    });
    // A moment more: a click written twice would show now.
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(await stored(), { counter: before.counter + OUTAGE_CLICKS, rows: before.rows + OUTAGE_CLICKS });
    assert.match(server.output(), /lost the connection to PostgreSQL/);
    assert.doesNotMatch(server.output(), /programmer error/, 'a lost connection reached the process guards');
    alive();
  });

  test('SIGTERM during an outage: the stop retries, writes every buffered click once the database is back, and exits 0', async () => {
    const before = await stored();
    await proxy.cut();
    for (let i = 0; i < 20; i++) assert.equal((await visit(1000 + i)).status, 302);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    // Back within the stop's retries (about 3 s in all).
    setTimeout(() => void proxy.restore(), 700);
    assert.equal(await exited, 0, server.output());
    assert.deepEqual(await stored(), { counter: before.counter + 20, rows: before.rows + 20 });
    assert.doesNotMatch(server.output(), /could not be written/);
  });
});
