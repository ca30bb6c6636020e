// Issue 50 (B): deploy/Caddyfile with Debian's caddy and its internal CA: a verified domain gets
// a certificate as its first visitor arrives (Caddy asks GET /tls/allowed first) and its links
// redirect over HTTPS; an unverified one gets none. No DNS: 127.0.0.1 with the name as SNI and Host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { startHarness, type Harness } from '../support/harness.ts';
import { freePort, ROOT } from '../support/processes.ts';
import { makeDomain, makeLink, unique, uniqueHost } from '../integration/redirect/redirect-support.ts';
import { staticWriter } from '../../src/adapters/cli/static-formats.ts';

const CADDY = '/usr/bin/caddy';
const SKIP =
  spawnSync(CADDY, ['version']).status === 0 ? false : `caddy is not installed at ${CADDY} (apt-get install -y caddy)`;

interface Visit {
  status: number;
  location: string | undefined;
  names: string;
}

/** A GET over HTTPS to Caddy on 127.0.0.1, the name as SNI and Host, trusting Caddy's own root. */
function visitOverTls(port: number, name: string, path: string, ca: string): Promise<Visit> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, servername: name, headers: { host: name }, ca, timeout: 10_000, agent: false },
      (res) => {
        const names = (res.socket as TLSSocket).getPeerCertificate().subjectaltname ?? '';
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, names }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from Caddy for ${name}`)));
    req.on('error', reject);
    req.end();
  });
}

async function listening(port: number, caddy: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (caddy.exitCode !== null) throw new Error(`caddy exited with ${caddy.exitCode}:\n${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`caddy did not listen on ${port}:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test(
  'Caddy gives a verified domain a certificate and its links; an unverified one none',
  { skip: SKIP, timeout: 90_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkpix-caddy-'));
    let h: Harness | null = null;
    let caddy: ChildProcess | null = null;
    let output = '';
    try {
      h = await startHarness('sqlite');
      const { key } = await h.account();
      const domain = await makeDomain(h, key);
      const link = await makeLink(h, key, {
        alias: unique('tls'),
        url: 'https://example.com/over-tls',
        domain: domain.id,
      });
      const pending = (await h.request('POST', '/api/v1/domains', { key, form: { name: uniqueHost() } })).body.data;

      // The static copy Caddy imports, in the export's own words: the link on the domain.
      const writer = staticWriter('caddy', { appBase: 'short.test', status: 302 });
      const line = writer.link([`${domain.name}/${link.alias.toLowerCase()}`], 'https://example.com/over-tls');
      assert.ok('text' in line);
      writeFileSync(join(dir, 'linkpix-static.caddy'), writer.head() + line.text + writer.tail());
      const linkpix = `127.0.0.1:${new URL(h.baseUrl).port}`;
      const [httpsPort, httpPort] = [await freePort(), await freePort()];
      mkdirSync(join(dir, 'data'));
      caddy = spawn(CADDY, ['run', '--config', join(ROOT, 'deploy', 'Caddyfile'), '--adapter', 'caddyfile'], {
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          // Caddy's storage (its CA, the certificates) in the test's directory.
          HOME: dir,
          XDG_DATA_HOME: join(dir, 'data'),
          XDG_CONFIG_HOME: join(dir, 'config'),
          LINKPIX_CADDY_ADMIN: 'off',
          LINKPIX_CADDY_OPTION: 'skip_install_trust',
          LINKPIX_HTTP_PORT: String(httpPort),
          LINKPIX_HTTPS_PORT: String(httpsPort),
          LINKPIX_BIND: '127.0.0.1',
          LINKPIX_ASK: `http://${linkpix}/tls/allowed`,
          LINKPIX_UPSTREAMS: linkpix,
          LINKPIX_TLS_ISSUER: 'issuer internal',
          LINKPIX_STATIC: join(dir, 'linkpix-static.caddy'),
        },
      });
      caddy.stdout!.on('data', (d) => (output += d));
      caddy.stderr!.on('data', (d) => (output += d));
      await listening(httpsPort, caddy, () => output);

      const rootFile = join(dir, 'data', 'caddy', 'pki', 'authorities', 'local', 'root.crt');
      const deadline = Date.now() + 10_000;
      while (!existsSync(rootFile) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const ca = readFileSync(rootFile, 'utf8');

      const visit = await visitOverTls(httpsPort, domain.name, `/${link.alias}`, ca);
      assert.equal(visit.status, 302, output);
      assert.equal(visit.location, 'https://example.com/over-tls');
      assert.match(visit.names, new RegExp(`DNS:${domain.name.replace(/\./g, '\\.')}`));

      for (const name of [pending.name as string, uniqueHost()]) {
        await assert.rejects(visitOverTls(httpsPort, name, '/', ca), (error: Error) => {
          assert.doesNotMatch(error.message, /no answer/, 'the handshake is refused, not left hanging');
          return true;
        });
      }
      assert.ok(
        !existsSync(join(dir, 'data', 'caddy', 'certificates', 'local', pending.name)),
        'no certificate stored',
      );

      // linkpix down: Caddy's error routes answer the link from the static copy, over the same certificate.
      await h.close();
      h = null;
      const fallback = await visitOverTls(httpsPort, domain.name, `/${link.alias.toLowerCase()}?q=1`, ca);
      assert.equal(fallback.status, 302, output);
      assert.equal(fallback.location, 'https://example.com/over-tls', 'a static copy cannot merge the query');
      assert.equal((await visitOverTls(httpsPort, domain.name, '/not-a-link', ca)).status, 502);
    } finally {
      if (caddy && caddy.exitCode === null) {
        const exited = new Promise((resolve) => caddy!.once('exit', resolve));
        caddy.kill('SIGTERM');
        await exited;
      }
      await h?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
