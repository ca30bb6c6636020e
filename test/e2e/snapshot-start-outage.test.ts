// Issue 50: an instance (re)started while PostgreSQL cannot be reached. The compiled server on
// PostgreSQL through a TCP proxy writes its redirect snapshot, and is stopped; the proxy cut, the
// same instance (port, APP_URL, SNAPSHOT_PATH) starts again: it skips the migrations, serves every
// link from the snapshot exactly as before (rules, the password page and its unlock cookie,
// expiry), answers /health, the API and the web app 503; the proxy restored, it stops, its clicks
// written, with exit 75, and started again as a supervisor would, it is a whole instance.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliAccountKey, freePort, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { eventually } from '../support/eventually.ts';
import { POSTGRES_SKIP } from '../support/harness.ts';
import { proxiedPostgres, snapshotHolds, type ProxiedPostgres } from '../support/proxied-postgres.ts';
import { tuningEnv } from '../support/test-tuning.ts';
import { newSealKeyText } from '../../src/adapters/secrets/seal-key.ts';

const UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const PASSWORD = 'open sesame';
/** The deployment's seal key: never in the snapshot, which holds only the secrets a visit uses. */
const SEAL_KEY = newSealKeyText();
const RULES = [
  { when: { language: ['de'] }, url: 'https://de.example/' },
  { when: { query: { c: 'sale' } }, url: 'https://shop.example/sale' },
];

interface Asked {
  what: string;
  alias: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  query?: string;
  form?: Record<string, string>;
}

/** Each visit asked of both starts; what is compared of the answers: status, Location, a password form. */
const VISITS: Asked[] = [
  { what: 'a plain link', alias: 'plain', query: 'n=1' },
  { what: 'a rule by language', alias: 'ruled', headers: { 'accept-language': 'de-DE,de;q=0.9' } },
  { what: 'a rule by query', alias: 'ruled', query: 'c=sale' },
  { what: 'no rule matching', alias: 'ruled', headers: { 'accept-language': 'fr' } },
  { what: 'the password page', alias: 'locked' },
  { what: 'a wrong password', alias: 'locked', method: 'POST', form: { password: 'not it' } },
  { what: 'the right password', alias: 'locked', method: 'POST', form: { password: PASSWORD } },
  { what: 'expired, with somewhere to go', alias: 'expired-to' },
  { what: 'expired', alias: 'expired' },
];

describe('an instance started during a PostgreSQL cut', { skip: POSTGRES_SKIP ?? false }, () => {
  let db: ProxiedPostgres;
  let dir: string;
  let base: string;
  let env: Record<string, string>;
  let key: string;
  const ids: Record<string, number> = {};
  let running: ServerProcess | null = null;
  const before_: Record<string, unknown> = {};
  let unlockCookie = '';

  const start = async () => (running = await startServerProcess(env));
  const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) =>
    eventually(what, check, { timeoutMs, everyMs: 100, explain: () => `server output:\n${running?.output()}` });
  const exitOf = (child: ChildProcess) =>
    new Promise<number | null>((resolve) =>
      child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
    );
  const ask = async ({ alias, method = 'GET', headers = {}, query, form }: Asked, cookie?: string) => {
    const res = await fetch(`${base}/${alias}${query ? `?${query}` : ''}`, {
      method,
      redirect: 'manual',
      headers: {
        'user-agent': UA,
        accept: 'text/html',
        ...headers,
        ...(cookie ? { cookie } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    const text = await res.text();
    return {
      answer: { status: res.status, location: res.headers.get('location'), passwordForm: /name="password"/.test(text) },
      cookies: res.headers.getSetCookie(),
    };
  };
  const link = async (alias: string, fields: Record<string, string>) => {
    const created = await fetch(`${base}/api/v1/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ alias, url: `https://example.com/${alias}`, ...fields }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    ids[alias] = (await created.json()).data.id as number;
  };

  before(async () => {
    db = await proxiedPostgres();
    dir = mkdtempSync(join(tmpdir(), 'linkpix-snapshot-start-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // The same instance each time: its port, its APP_URL (the snapshot's origin), its snapshot.
    env = {
      DATABASE_URL: db.url,
      PORT: String(port),
      APP_URL: base,
      SNAPSHOT_PATH: join(dir, 'redirects.snapshot'),
      SEAL_KEY,
      CLICK_FLUSH_INTERVAL_MS: '200',
      ...tuningEnv({ STATS_FLUSH_INTERVAL_MS: 200, SNAPSHOT_ROUND_MS: 200 }),
    };
    await start();
    key = await cliAccountKey(running!.env, 'restart@example.com');
    await link('plain', {});
    await link('ruled', { rules: JSON.stringify(RULES) });
    await link('locked', { password: PASSWORD });
    const past = { expiration_date: '2020-01-01', expiration_time: '00:00' };
    await link('expired-to', { ...past, expiration_url: 'https://example.com/afterwards' });
    await link('expired', past);
  });

  after(async () => {
    if (running && running.child.exitCode === null) running.child.kill('SIGKILL');
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the running instance: its answers, and its snapshot holding every link', async () => {
    for (const visit of VISITS) {
      const { answer, cookies } = await ask(visit);
      before_[visit.what] = answer;
      if (visit.form?.password === PASSWORD) unlockCookie = cookies.map((c) => c.split(';')[0]).join('; ');
    }
    assert.equal((before_['a rule by language'] as { location: string }).location, 'https://de.example/');
    assert.equal((before_['expired'] as { status: number }).status, 410);
    assert.match(unlockCookie, new RegExp(`lp_unlock_${ids.locked}=`));
    assert.equal((await ask({ what: 'unlocked', alias: 'locked' }, unlockCookie)).answer.status, 302);
    await until('the snapshot to hold every link', () => snapshotHolds(env.SNAPSHOT_PATH!, Object.keys(ids)));
    assert.equal(statSync(env.SNAPSHOT_PATH!).mode & 0o777, 0o600);
    assert.ok(!readFileSync(env.SNAPSHOT_PATH!, 'utf8').includes(SEAL_KEY), 'never the seal key');
    const stopped = running!.child;
    stopped.kill('SIGTERM');
    assert.equal(await exitOf(stopped), 0);
  });

  test('started during the cut: every link answers as before; /health, the API and the web app 503', async () => {
    await db.proxy.cut();
    const b = await start();
    await until('the start to say it serves the snapshot', () => /started from the redirect snapshot/.test(b.output()));
    for (const visit of VISITS) assert.deepEqual((await ask(visit)).answer, before_[visit.what], visit.what);
    const unlocked = await ask({ what: 'unlocked', alias: 'locked' }, unlockCookie);
    assert.equal(unlocked.answer.status, 302, "the running instance's unlock cookie holds here");
    assert.equal(unlocked.answer.location, 'https://example.com/locked');
    assert.equal((await ask({ what: 'unknown', alias: 'no-such-link' })).answer.status, 503, 'not in the snapshot');
    for (let n = 2; n <= 4; n++)
      assert.equal((await ask({ what: 'plain', alias: 'plain', query: `n=${n}` })).answer.status, 302);

    const health = await fetch(`${base}/health`);
    assert.equal(health.status, 503);
    const said = await health.json();
    assert.deepEqual([said.status, said.database, said.redirects], ['unavailable', 'down', 'snapshot']);
    const api = await fetch(`${base}/api/v1/links`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(api.status, 503);
    assert.match((await api.json()).message, /database is unavailable/i);
    for (const path of ['/login', '/', '/signup', '/dashboard']) {
      const page = await fetch(`${base}${path}`, { redirect: 'manual', headers: { accept: 'text/html' } });
      assert.equal(page.status, 503, path);
      assert.match(page.headers.get('content-type') ?? '', /text\/html/);
      assert.match(await page.text(), /cannot reach its database/, path);
    }
    assert.equal(b.child.exitCode, null);
    // The outage is told by its lines, not by an error of each thing the start could not do.
    assert.doesNotMatch(b.output(), /"level":50/, b.output());
  });

  test('the database back: it stops with exit 75, its clicks written; started again, it is whole', async () => {
    const b = running!;
    await db.proxy.restore();
    assert.equal(await exitOf(b.child), 75, b.output());
    assert.match(b.output(), /the database is back/);
    // One visit of the running instance, four of the one started during the cut.
    assert.deepEqual(await db.clicksOf(ids.plain!), { rows: 5, counter: 5 });

    const c = await start();
    assert.doesNotMatch(c.output(), /started from the redirect snapshot/);
    const health = await fetch(`${base}/health`);
    assert.equal(health.status, 200, await health.clone().text());
    assert.equal((await health.json()).database, 'up');
    const api = await fetch(`${base}/api/v1/links`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(api.status, 200);
    assert.equal((await fetch(`${base}/login`)).status, 200);
    for (const visit of VISITS) assert.deepEqual((await ask(visit)).answer, before_[visit.what], visit.what);
    assert.equal((await ask({ what: 'unknown', alias: 'no-such-link' })).answer.status, 404);
    c.child.kill('SIGTERM');
    assert.equal(await exitOf(c.child), 0);
  });
});
