// Variables that were settings (docs/design/settings.md), still set at a start: one warning line
// names them all, with what replaced each; an old *_ALLOW_PRIVATE name still does its work for
// this release. Started here by hand: startServerProcess refuses retired variables.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, MAIN, ROOT, freePort, run, waitForOutput } from '../support/processes.ts';

describe('a start with retired variables set', () => {
  let dir: string;
  let child: ChildProcess;
  let base: string;
  let env: Record<string, string>;
  let output = '';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkpix-retired-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: base,
      DATABASE_URL: `sqlite:${join(dir, 'e2e.db')}`,
      TITLE_FETCH: 'false',
      LOG_LEVEL: 'info',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      CLICK_BATCH_SIZE: '5',
      WEBHOOK_LEASE_MS: '5000',
      METRICS_HOST: '127.0.0.1',
    };
    child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: { ...process.env, ...env } });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    await waitForOutput(child, /Server listening/);
  });
  after(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  test('one warning line names every one, with what replaced it', () => {
    const warnings = output.split('\n').filter((line) => line.includes('settings no longer read'));
    assert.equal(warnings.length, 1, output);
    const [line] = warnings;
    assert.match(line!, /"level":40/);
    assert.match(line!, /WEBHOOK_ALLOW_PRIVATE → OUTBOUND_ALLOW_PRIVATE/);
    assert.match(line!, /METRICS_HOST → METRICS_PORT=host:port/);
    assert.match(line!, /WEBHOOK_LEASE_MS, CLICK_BATCH_SIZE → constants/);
  });

  test('WEBHOOK_ALLOW_PRIVATE=true is read as OUTBOUND_ALLOW_PRIVATE: a loopback webhook is taken', async () => {
    const made = await run(process.execPath, [BIN, 'users', 'create', '--email', 'retired@example.com'], env);
    assert.equal(made.code, 0, made.stderr);
    const key = JSON.parse(made.stdout).api_key as string;
    const res = await fetch(`${base}/api/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', events: ['link.created'] }),
    });
    assert.equal(res.status, 201, await res.text());
  });
});
