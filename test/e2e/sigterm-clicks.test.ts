/**
 * SIGTERM under redirect load: every redirect the server answered must be in the database once
 * the process has exited 0 — the click buffer is flushed on the way out, nothing is lost and
 * nothing is counted twice; and the statistics, summed in a rollup window, agree with it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { ENGINES } from '../support/harness.ts';
import { clickDatabase, writtenTo, type ClickDatabase } from '../support/click-database.ts';
import { BIN, run, startServerProcess } from '../support/processes.ts';
import { tuningEnv } from '../support/test-tuning.ts';

const TOTAL = 600;
const CONCURRENCY = 20;
// Traffic over this many links: enough rollup rows that a PostgreSQL batch's window is held back
// rather than written with it, so the stop must write it.
const LINKS = 100;
const UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

for (const engine of ENGINES)
  describe(`SIGTERM in the middle of redirect traffic [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    let db: ClickDatabase;
    let env: Record<string, string>;
    let child: ChildProcess;
    let base: string;
    let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

    before(async () => {
      db = await clickDatabase(engine.name, 'sigterm');
      ({ child, base, env } = await startServerProcess({
        DATABASE_URL: db.databaseUrl,
        SHUTDOWN_TIMEOUT_MS: '15000',
        // Small batches written often, and a remainder still buffered when the signal comes. On
        // PostgreSQL, batches whose rollups outgrow what goes with a batch: the window is held
        // back (for up to the default 15 s), and the stop must write it.
        CLICK_FLUSH_INTERVAL_MS: '400',
        ...tuningEnv({ CLICK_BATCH_SIZE: engine.name === 'postgres' ? 300 : 40 }),
      }));
      exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    });

    after(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await db?.cleanup();
    });

    test('links.clicks = click rows = rollup totals = 302 responses received, and the exit is 0', async (t) => {
      const made = await run(process.execPath, [BIN, 'users', 'create', '--email', 'load@example.com'], env);
      assert.equal(made.code, 0, made.stderr);
      const key = JSON.parse(made.stdout).api_key as string;
      const linkIds = await Promise.all(
        Array.from({ length: LINKS }, async (_, k) => {
          const created = await fetch(`${base}/api/v1/links`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${key}`,
              accept: 'application/json',
              'content-type': 'application/x-www-form-urlencoded',
            },
            body: `url=https%3A%2F%2Fexample.com%2Floaded${k}&alias=loaded${k}`,
          });
          const createdText = await created.text();
          assert.equal(created.status, 201, createdText);
          return JSON.parse(createdText).data.id as number;
        }),
      );

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
            const res = await fetch(`${base}/loaded${i % LINKS}?n=${i}`, {
              redirect: 'manual',
              headers: { 'user-agent': UA, accept: 'text/html' },
            });
            await res.arrayBuffer();
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            if (res.status === 302) {
              assert.equal(res.headers.get('location'), `https://example.com/loaded${i % LINKS}?n=${i}`);
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

      const written = await writtenTo(db.databaseUrl, linkIds);
      const detail = `302s ${redirects} (${afterSignal} after SIGTERM), refused ${refused}, statuses ${JSON.stringify([...statuses])}`;
      t.diagnostic(
        `${detail}; click rows ${written.rows}, links.clicks ${written.clicks}, rollup total ${written.total}`,
      );
      assert.equal(written.bots, 0, detail);
      assert.equal(written.rows, redirects, `click rows vs 302 responses: ${detail}`);
      assert.equal(written.clicks, redirects, `links.clicks vs 302 responses: ${detail}`);
      assert.equal(written.total, redirects, `rollup totals vs 302 responses: ${detail}`);
    });
  });
