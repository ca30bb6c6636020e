// Issue 50 (A): `linkpix export-static` writes the plain links as a map a web server answers
// from while linkpix is away; every other link is named on standard error with its reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { onEachEngineWithCli } from '../../support/cli.ts';
import { makeDomain, makeLink, unique, uniqueHost } from '../redirect/redirect-support.ts';

const run = promisify(execFile);
const CADDY = '/usr/bin/caddy';

onEachEngineWithCli(
  'linkpix export-static',
  ({ cli, startServer }) => {
    test('nginx, caddy and json: the plain links under their hosts; the others left out with why', async () => {
      const made = JSON.parse((await cli('users', 'create', '--email', `static-${unique('')}@example.com`)).stdout);
      const key = made.api_key as string;
      const h = await startServer();
      const aliases: Record<string, string> = {};
      let domainName = '';
      try {
        const link = async (name: string, form: Record<string, unknown> = {}) =>
          (aliases[name] = (await makeLink(h, key, { alias: unique(name), ...form })).alias);
        await link('Plain', { url: 'https://example.com/plain?x=1' });
        await link('password', { password: 'secret-pass' });
        await link('disabled', { disabled: 1 });
        await link('cap', { expiration_clicks: 5 });
        await link('expiry', { expiration_date: '2099-01-01', expiration_time: '10:00' });
        await link('conversions', { track_conversions: 1 });
        await link('app', { ios_url: 'https://apps.example.com/x' });
        await link('rotation', { target_type: 4, rotation_target: [{ value: 'https://a.example.com/' }] });
        await link('dollar', { url: 'https://example.com/a$b' });
        const domain = await makeDomain(h, key);
        domainName = domain.name;
        await link('ondomain', { url: 'https://example.com/domain', domain: domain.id });
        const pending = await h.request('POST', '/api/v1/domains', { key, form: { name: uniqueHost() } });
        await link('onpending', { domain: pending.body.data.id });
      } finally {
        await h.close();
      }

      const nginx = await cli('export-static', '--format', 'nginx');
      assert.equal(nginx.code, 0, nginx.stderr);
      const lines = nginx.stdout.split('\n');
      assert.ok(lines.includes('map $host$uri $linkpix_target {'), nginx.stdout);
      const plainKey = `short.test/${aliases.Plain}`;
      assert.ok(lines.includes(`    "${plainKey.toLowerCase()}" "https://example.com/plain?x=1";`), nginx.stdout);
      assert.ok(!lines.includes(`    "${plainKey}" "https://example.com/plain?x=1";`), 'nginx ignores case: one key');
      assert.ok(lines.includes(`    "${domainName}/${aliases.ondomain}" "https://example.com/domain";`), nginx.stdout);
      const reasons: Record<string, string> = {
        password: 'password',
        disabled: 'disabled',
        cap: 'click cap',
        expiry: 'expiry',
        conversions: 'conversion tracking',
        app: 'app links',
        rotation: 'targeting',
        dollar: 'a character nginx would read in the URL',
        onpending: 'pending domain',
      };
      for (const [name, reason] of Object.entries(reasons)) {
        assert.ok(!nginx.stdout.includes(`/${aliases[name]}"`), `${name} is not in the map`);
        assert.match(
          nginx.stderr,
          new RegExp(`skipped \\S+/${aliases[name]!.toLowerCase()}: ${reason.replace('$', '\\$')}`),
        );
      }
      assert.match(nginx.stderr, /export-static: 2 links written, 9 left out/);

      const json = await cli('export-static', '--format', 'json');
      assert.equal(json.code, 0, json.stderr);
      const parsed = JSON.parse(json.stdout);
      assert.equal(parsed.format, 'linkpix.static');
      assert.equal(parsed.app, 'short.test');
      assert.deepEqual(
        parsed.links.map((l: { key: string }) => l.key).sort(),
        [plainKey.toLowerCase(), plainKey, `${domainName}/${aliases.ondomain}`, `short.test/${aliases.dollar}`].sort(),
        'JSON holds any URL',
      );

      const caddy = await cli('export-static', '--format', 'caddy');
      const caddyHolds = (k: string) => caddy.stdout.includes(`\t\t"${k}" "https://example.com/plain?x=1"\n`);
      assert.ok(caddyHolds(plainKey.toLowerCase()), caddy.stdout);
      assert.ok(caddyHolds(plainKey), 'Caddy matches exactly: the key as it was written too');
      assert.equal(caddy.code, 0, caddy.stderr);
      assert.ok(caddy.stdout.includes('redir @linkpix_static {linkpix_target} 302'));
      await caddyAdapts(caddy.stdout);

      const bad = await cli('export-static', '--format', 'apache');
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /format: --format must be one of: nginx, caddy, json/);
    });
  },
  { APP_URL: 'http://short.test' },
);

/** The real caddy reads the snippet inside a site's error routes (skipped without the binary). */
async function caddyAdapts(snippet: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'linkpix-caddy-adapt-'));
  try {
    writeFileSync(join(dir, 'linkpix-static.caddy'), snippet);
    const file = join(dir, 'Caddyfile');
    writeFileSync(
      file,
      `import linkpix-static.caddy\n\nhttp://short.test {\n\thandle_errors {\n\t\timport linkpix_static\n\t}\n\trespond 502\n}\n`,
    );
    try {
      await run(CADDY, ['adapt', '--config', file, '--adapter', 'caddyfile'], { timeout: 20_000, cwd: dir });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
