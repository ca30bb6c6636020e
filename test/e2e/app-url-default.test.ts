// The compiled server without APP_URL: it builds short links on http://localhost:{PORT}, the port
// it was given (not 8080), and says so in its log when it starts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN, ROOT, cliAccountKey, freePort, waitForOutput } from '../support/processes.ts';

describe('APP_URL unset: short links on http://localhost:{PORT}', () => {
  let dir: string;
  let child: ChildProcess;
  let port: number;
  let output = '';
  let env: Record<string, string>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkpix-e2e-app-url-'));
    port = await freePort();
    env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'e2e.db')}`,
      TITLE_FETCH: 'false',
      LOG_LEVEL: 'info',
      API_RATE_LIMIT: '0',
    };
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'APP_URL'));
    child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: { ...inherited, ...env } });
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    await waitForOutput(child, /linkpix serves at/);
  });
  after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  test('the start is logged with the address, and a new link is on it', async () => {
    const base = `http://localhost:${port}`;
    const line = output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg?: string; appUrl?: string })
      .find((l) => l.appUrl !== undefined);
    assert.deepEqual(line && { msg: line.msg, appUrl: line.appUrl }, {
      msg: `linkpix serves at ${base}`,
      appUrl: base,
    });

    const key = await cliAccountKey(env, 'default-url@example.com');
    const created = await fetch(`http://127.0.0.1:${port}/api/v1/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'url=https%3A%2F%2Fexample.com%2F&alias=here',
    });
    assert.equal(created.status, 201);
    assert.equal(((await created.json()) as { data: { short_url: string } }).data.short_url, `${base}/here`);
  });
});
