// The packages as people get them: `npm pack` in packages/sdk and packages/cli, the tarballs
// installed into a project of their own with `npm install --offline`, then used there: the SDK
// imported and type-checked against, the CLI run through its `linkpix` bin and `npx linkpix`
// (`linkpix mcp` driven by the MCP SDK's stdio client), against a running server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startHarness, type Harness } from '../support/harness.ts';
import { ROOT, run } from '../support/processes.ts';

const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** The names a package depends on, and theirs, as installed in the repository's node_modules. */
function dependenciesOf(folder: string, seen = new Set<string>()): Set<string> {
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    if (seen.has(name)) continue;
    seen.add(name);
    dependenciesOf(join(ROOT, 'node_modules', name), seen);
  }
  return seen;
}

describe('the SDK and the CLI packed, installed elsewhere', () => {
  let h: Harness;
  let dir: string;
  let probe: string;
  let key: string;
  const tarballs: Record<string, string> = {};

  before(async () => {
    h = await startHarness('sqlite');
    key = (await h.account()).key;
    dir = mkdtempSync(join(tmpdir(), 'linkpix-pack-'));
    for (const name of ['sdk', 'cli']) {
      const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], {}, join(ROOT, 'packages', name));
      assert.equal(packed.code, 0, packed.stderr);
      const [report] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
      tarballs[name] = join(dir, report!.filename);
      const files = report!.files.map((f) => f.path);
      assert.ok(files.includes('dist/index.js') && files.includes('dist/index.d.ts'), files.join(' '));
      assert.ok(files.includes('README.md'), `${name} packs its README`);
      assert.ok(!files.some((f) => f.startsWith('src/') || f.endsWith('.tsbuildinfo')), files.join(' '));
    }
    // Their dependencies are packed from the repository's node_modules and installed beside them:
    // a lockfile install caches tarballs but not the registry's package documents, so an offline
    // install of a name would need a cache that a fresh machine does not have.
    const dependencies: string[] = [];
    for (const name of dependenciesOf(join(ROOT, 'packages', 'sdk'))) {
      const packed = await run(
        'npm',
        ['pack', '--json', '--pack-destination', dir],
        {},
        join(ROOT, 'node_modules', name),
      );
      assert.equal(packed.code, 0, packed.stderr);
      dependencies.push(join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename));
    }
    probe = join(dir, 'probe');
    mkdirSync(probe);
    writeFileSync(join(probe, 'package.json'), JSON.stringify({ name: 'probe', private: true, type: 'module' }));
    const installed = await run(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', tarballs.sdk!, tarballs.cli!, ...dependencies],
      {},
      probe,
    );
    assert.equal(installed.code, 0, `npm install --offline of the tarballs: ${installed.stderr}`);
  });
  after(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the SDK imports and works; its types compile in a strict project', async () => {
    writeFileSync(
      join(probe, 'use.mjs'),
      `import { Linkpix, LinkpixValidationError } from '@linkpix/sdk';
const linkpix = new Linkpix({ url: process.env.URL, apiKey: process.env.KEY });
const link = await linkpix.links.create({ url: 'https://example.com/packed-sdk' });
const refused = await linkpix.links.create({ url: 'nope' }).catch((e) => e);
console.log(JSON.stringify({ url: link.url, refused: refused instanceof LinkpixValidationError && Object.keys(refused.fields) }));
`,
    );
    const used = await run(process.execPath, ['use.mjs'], { URL: h.baseUrl, KEY: key }, probe);
    assert.equal(used.code, 0, used.stderr);
    assert.deepEqual(JSON.parse(used.stdout), { url: 'https://example.com/packed-sdk', refused: ['url'] });

    writeFileSync(
      join(probe, 'use.ts'),
      `import { Linkpix, type Link, type StatsTable } from '@linkpix/sdk';
const linkpix = new Linkpix({ url: 'https://lpx.example', apiKey: 'lpx_x', retries: { retries: 1 } });
export const link: Promise<Link> = linkpix.links.create({ url: 'https://example.com', tags: ['a'] });
export const days = (t: StatsTable): number => t.data.reduce((n, e) => n + e.count, t.stats.total);
// @ts-expect-error: a link record has no such field
export const wrong = (l: Link) => l.nonexistent;
`,
    );
    writeFileSync(
      join(probe, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'nodenext', strict: true, noEmit: true, lib: ['ES2022', 'DOM'], types: [] },
        files: ['use.ts'],
      }),
    );
    // Throws with tsc's own report when the types do not compile.
    execFileSync(process.execPath, [TSC, '-p', probe], { encoding: 'utf8' });
  });

  test("the CLI's linkpix bin, directly and through npx, with the environment for a login", async () => {
    const env = { HOME: probe, XDG_CONFIG_HOME: join(probe, 'config'), LINKPIX_URL: h.baseUrl, LINKPIX_API_KEY: key };
    const bin = join(probe, 'node_modules', '.bin', 'linkpix');
    const made = await run(bin, ['shorten', 'https://example.com/packed-cli', '--json'], env, probe);
    assert.equal(made.code, 0, made.stderr);
    assert.equal(JSON.parse(made.stdout).url, 'https://example.com/packed-cli');
    const npx = await run('npx', ['--offline', 'linkpix', 'links', 'list', '--json'], env, probe);
    assert.equal(npx.code, 0, npx.stderr);
    assert.ok(JSON.parse(npx.stdout).some((l: { url: string }) => l.url === 'https://example.com/packed-cli'));
    // The operator's commands live with the server, not in this package.
    const operator = await run(bin, ['users', 'create', '--email', 'a@example.com'], env, probe);
    assert.equal(operator.code, 2);
    assert.match(operator.stderr, /Unknown command "users"/);
  });

  test('`npx linkpix mcp` of the packed CLI: an MCP server on stdio relaying to the server', async () => {
    const env = { PATH: process.env.PATH ?? '', HOME: probe, LINKPIX_URL: h.baseUrl, LINKPIX_API_KEY: key };
    const client = new Client({ name: 'packed', version: '1' });
    await client.connect(
      new StdioClientTransport({ command: 'npx', args: ['--offline', 'linkpix', 'mcp'], cwd: probe, env }),
    );
    try {
      assert.equal((await client.listTools()).tools.length, 8);
      const made = await client.callTool({ name: 'create_link', arguments: { url: 'https://example.com/packed-mcp' } });
      assert.equal(made.isError, undefined, JSON.stringify(made));
    } finally {
      await client.close();
    }
  });
});
