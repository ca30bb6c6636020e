/**
 * SIGTERM under redirect load: every redirect the server answered must be in the database once
 * the process has exited 0 — the click buffer is flushed on the way out, nothing is lost and
 * nothing is counted twice.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BIN, ROOT, freePort, run, waitForOutput } from '../support/processes.ts';

// What `npm start` runs: the compiled server (scripts/run-tests.mjs builds it before this tier).
const MAIN = join(ROOT, 'dist', 'app', 'main.js');
const TOTAL = 600;
const CONCURRENCY = 20;
const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

describe('SIGTERM in the middle of redirect traffic', () => {
  let dir: string;
  let dbFile: string;
  let env: Record<string, string>;
  let child: ChildProcess;
  let base: string;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkpix-sigterm-'));
    dbFile = join(dir, 'sigterm.db');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      DATABASE_URL: `sqlite:${dbFile}`, PORT: String(port), HOST: '127.0.0.1', APP_URL: base, TITLE_FETCH: 'false',
      LOG_LEVEL: 'info', API_RATE_LIMIT: '0', SHUTDOWN_TIMEOUT_MS: '15000',
      // Small batches written often, and a remainder still buffered when the signal comes.
      CLICK_FLUSH_INTERVAL_MS: '400', CLICK_BATCH_SIZE: '40',
    };
    child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: { ...process.env, ...env } });
    exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    await waitForOutput(child, /Server listening/);
  });

  after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  test('links.clicks = click rows = 302 responses received, and the exit is 0', async (t) => {
    const made = await run(process.execPath, [BIN, 'users', 'create', '--email', 'load@example.com'], env);
    assert.equal(made.code, 0, made.stderr);
    const key = JSON.parse(made.stdout).api_key as string;
    const created = await fetch(`${base}/api/v1/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'url=https%3A%2F%2Fexample.com%2Floaded&alias=loaded',
    });
    const createdText = await created.text();
    assert.equal(created.status, 201, createdText);
    const linkId = JSON.parse(createdText).data.id as number;

    let next = 0;
    let redirects = 0;
    let afterSignal = 0;
    let refused = 0;
    const statuses = new Map<number, number>();
    let signalled = false;
    let signalAt = 0;

    const worker = async () => {
      while (next < TOTAL) {
        const i = next++;
        // The signal goes out mid-load, with requests in flight on every connection.
        if (!signalled && i >= TOTAL / 3) {
          signalled = true;
          signalAt = Date.now();
          child.kill('SIGTERM');
        }
        try {
          const res = await fetch(`${base}/loaded?n=${i}`, { redirect: 'manual', headers: { 'user-agent': UA, accept: 'text/html' } });
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 302) {
            assert.equal(res.headers.get('location'), `https://example.com/loaded?n=${i}`);
            redirects++;
            if (signalled) afterSignal++;
          }
        } catch {
          refused++; // the listener is gone: not answered, so not counted either
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    const { code, signal } = await exited;
    assert.equal(signal, null);
    assert.equal(code, 0, 'the server did not stop cleanly');
    assert.ok(signalAt > 0);
    // Only redirects and the 503 Fastify gives to requests that arrive while it closes.
    for (const status of statuses.keys()) assert.ok(status === 302 || status === 503, `unexpected status ${status}`);
    assert.ok(redirects >= TOTAL / 3 - CONCURRENCY, `only ${redirects} redirects answered`);
    assert.equal(redirects + refused + (statuses.get(503) ?? 0), TOTAL);

    const db = new Database(dbFile, { readonly: true });
    try {
      const counter = db.prepare('select clicks from links where id = ?').get(linkId) as { clicks: number };
      const rows = db.prepare('select count(*) as n from clicks where link_id = ?').get(linkId) as { n: number };
      const bots = db.prepare('select count(*) as n from clicks where link_id = ? and is_bot <> 0').get(linkId) as { n: number };
      const detail = `302s ${redirects} (${afterSignal} after SIGTERM), refused ${refused}, statuses ${JSON.stringify([...statuses])}`;
      t.diagnostic(`${detail}; click rows ${rows.n}, links.clicks ${counter.clicks}`);
      assert.equal(bots.n, 0, detail);
      assert.equal(rows.n, redirects, `click rows vs 302 responses: ${detail}`);
      assert.equal(counter.clicks, redirects, `links.clicks vs 302 responses: ${detail}`);
    } finally {
      db.close();
    }
  });
});
