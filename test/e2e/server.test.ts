import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, MAIN, run, startServerProcess } from '../support/processes.ts';

describe('the server process (npm start)', () => {
  let dir: string;
  let env: Record<string, string>;
  let child: ChildProcess;
  let base: string;
  let exited: Promise<number | null>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkpix-e2e-'));
    ({ child, base, env } = await startServerProcess({ DATABASE_URL: `sqlite:${join(dir, 'e2e.db')}` }));
    exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  });
  after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  test('the README walk-through: key from the CLI, create, list, delete', async () => {
    const made = await run(process.execPath, [BIN, 'users', 'create', '--email', 'walk@example.com'], env);
    assert.equal(made.code, 0, made.stderr);
    const key = JSON.parse(made.stdout).api_key as string;
    const auth = { authorization: `Bearer ${key}`, accept: 'application/json' };
    const health = await fetch(`${base}/health`);
    assert.equal(health.status, 200);
    const created = await fetch(`${base}/api/v1/links`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'url=https%3A%2F%2Fexample.com%2Fhello&alias=hello',
    });
    assert.equal(created.status, 201);
    const link = (await created.json()).data;
    assert.equal(link.short_url, `${base}/hello`);
    const listed = await (await fetch(`${base}/api/v1/links`, { headers: auth })).json();
    assert.equal(listed.meta.total, 1);
    const deleted = await fetch(`${base}/links/${link.id}/destroy`, { method: 'DELETE', headers: auth });
    assert.deepEqual(await deleted.json(), { id: link.id, object: 'link', deleted: true, status: 200 });
  });

  test('SIGTERM lets a request in flight finish, then exits 0', async () => {
    const made = await run(process.execPath, [BIN, 'users', 'create', '--email', 'term@example.com'], env);
    const key = JSON.parse(made.stdout).api_key as string;
    const body = 'url=https%3A%2F%2Fexample.com%2Fslow&alias=slow';
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        `${base}/api/v1/links`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': String(Buffer.byteLength(body)),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      // Half the body now, the rest after SIGTERM: the request is in flight when the stop begins.
      req.write(body.slice(0, 10));
      setTimeout(() => {
        child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 200);
    });
    const result = await answer;
    assert.equal(result.status, 201, result.text);
    assert.equal(await exited, 0);
  });
});

describe('configuration', () => {
  test('a bad value stops start-up with a message naming the variable', async () => {
    const ran = await run(process.execPath, ['--import', 'tsx', MAIN], {
      PORT: 'eighty',
      DATABASE_URL: 'mysql://nope',
      LOG_LEVEL: 'silent',
    });
    assert.equal(ran.code, 1);
    assert.match(ran.stderr, /PORT="eighty": must be an integer/);
    assert.match(ran.stderr, /DATABASE_URL="mysql:\/\/nope"/);
  });
});
