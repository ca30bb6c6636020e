// Issue 50 (A): nginx in front of linkpix (deploy/nginx-proxy.conf) falls back to the map of
// `linkpix export-static --format nginx` (deploy/nginx-static-fallback.conf) when linkpix is down.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { runCli } from '../../src/app/cli.ts';
import { startHarness } from '../support/harness.ts';
import { cliAccountKey, cliDatabase, freePort, ROOT } from '../support/processes.ts';
import { hasNginx, NGINX } from '../support/cluster.ts';
import { nginxConf } from '../support/nginx-conf.ts';
import { makeLink, unique } from '../integration/redirect/redirect-support.ts';

const SKIP = hasNginx() ? false : `nginx is not installed at ${NGINX} (apt-get install -y nginx)`;

/** One GET through nginx with this Host; the status and Location. */
function get(port: number, path: string, host: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host }, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer for ${path}`)));
    req.on('error', reject);
    req.end();
  });
}

async function exportNginx(env: Record<string, string>): Promise<string> {
  let out = '';
  let err = '';
  const code = await runCli(['export-static', '--format', 'nginx'], env, {
    input: Readable.from([]),
    out: (text) => (out += `${text}\n`),
    write: (text) => (out += text),
    err: (text) => (err += `${text}\n`),
    progress: null,
  });
  assert.equal(code, 0, err);
  return out;
}

test(
  'nginx answers the plain links from the static map once linkpix is down',
  { skip: SKIP, timeout: 60_000 },
  async () => {
    const database = await cliDatabase('sqlite');
    const env: Record<string, string> = { ...database.env, APP_URL: 'http://short.test' };
    const dir = mkdtempSync(join(tmpdir(), 'linkpix-nginx-static-'));
    chmodSync(dir, 0o755);
    let nginx: ReturnType<typeof spawn> | null = null;
    let h: Awaited<ReturnType<typeof startHarness>> | null = null;
    try {
      const key = await cliAccountKey(env, `nginx-static-${unique('')}@example.com`);
      h = await startHarness('sqlite', { env: { DATABASE_URL: env.DATABASE_URL! } });
      const plain = await makeLink(h, key, { alias: unique('Static'), url: 'https://example.com/static' });
      const locked = await makeLink(h, key, { alias: unique('locked'), password: 'secret-pass' });
      writeFileSync(join(dir, 'linkpix-static.map'), await exportNginx(env));

      const port = await freePort();
      const include = {
        http: [join(dir, 'linkpix-static.map')],
        server: [join(ROOT, 'deploy', 'nginx-static-fallback.conf')],
      };
      const upstreams = [Number(new URL(h.baseUrl).port)];
      writeFileSync(join(dir, 'nginx.conf'), nginxConf({ dir, port, upstreams, include }));
      let output = '';
      nginx = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', 'stderr', '-g', 'daemon off;']);
      nginx.stderr!.on('data', (d) => (output += d));
      nginx.stdout!.on('data', (d) => (output += d));
      const deadline = Date.now() + 10_000;
      for (;;) {
        if (nginx.exitCode !== null) {
          await new Promise((r) => setTimeout(r, 100));
          throw new Error(
            `nginx exited with ${nginx.exitCode}:\n${output}\n${readFileSync(join(dir, 'linkpix-static.map'), 'utf8')}`,
          );
        }
        const up = await get(port, '/health', 'short.test').catch(() => null);
        if (up) break;
        if (Date.now() > deadline) throw new Error(`nginx did not answer:\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }

      // linkpix up: nginx passes the visit on, and linkpix merges the visit's query.
      const live = await get(port, `/${plain.alias}?utm=1`, 'short.test');
      assert.equal(live.status, 302);
      assert.equal(live.location, 'https://example.com/static?utm=1');

      await h.close();
      h = null;
      // linkpix down: the map answers, whatever the alias's case (nginx's map ignores it).
      const cases = [plain.alias, plain.alias.toLowerCase(), plain.alias.toUpperCase()].map((a) => `/${a}`);
      for (const path of [...cases, `/${plain.alias}?utm=1`]) {
        const fallback = await get(port, path, 'short.test');
        assert.equal(fallback.status, 302, `${path}: ${output}`);
        assert.equal(fallback.location, 'https://example.com/static', 'the static copy cannot merge the query');
      }
      assert.equal(
        (await get(port, `/${locked.alias}`, 'short.test')).status,
        502,
        'a link with a password is not in it',
      );
      assert.equal((await get(port, `/${plain.alias}`, 'other.test')).status, 502, 'keyed by host');
      assert.equal((await get(port, '/nothing-here', 'short.test')).status, 502);
    } finally {
      if (nginx && nginx.exitCode === null) {
        const exited = new Promise((resolve) => nginx!.once('exit', resolve));
        nginx.kill('SIGTERM');
        await exited;
      }
      await h?.close();
      rmSync(dir, { recursive: true, force: true });
      await database.cleanup();
    }
  },
);
