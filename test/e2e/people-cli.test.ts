// `linkpix` for people (packages/cli) as a process of its own against a running server on each
// engine: login and its file, every command with and without --json, the exit codes, the
// environment in place of a login, and the routing of bin/linkpix.js and `npx linkpix`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onEachEngine } from '../support/harness.ts';
import { BIN, ROOT, run } from '../support/processes.ts';
import { visit } from '../integration/redirect/redirect-support.ts';
import { PEOPLE_COMMANDS } from '../../packages/cli/src/index.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

test("bin/linkpix.js routes exactly the CLI's commands to it", () => {
  const listed = /const PEOPLE_COMMANDS = \[([^\]]*)\]/.exec(readFileSync(BIN, 'utf8'))?.[1];
  assert.ok(listed, 'bin/linkpix.js lists PEOPLE_COMMANDS');
  assert.deepEqual(
    listed.split(',').map((w) => w.trim().replace(/^'|'$/g, '')),
    PEOPLE_COMMANDS,
  );
});

onEachEngine('linkpix for people, a process against a running server', (h) => {
  let home: string;
  /** A person's environment: their own home and config folder, no LINKPIX_* unless given. */
  let env: Record<string, string>;
  const cli = (args: string[], extra: Record<string, string> = {}, input?: string) =>
    run(process.execPath, [BIN, ...args], { ...env, ...extra }, ROOT, input);
  const configFile = () => join(home, 'config', 'linkpix', 'config.json');

  before(() => {
    home = mkdtempSync(join(tmpdir(), 'linkpix-people-'));
    env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), LINKPIX_URL: '', LINKPIX_API_KEY: '' };
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  test('not logged in: exit 3; a refused key saves nothing (3); login keeps the key in a 0600 file', async () => {
    const none = await cli(['links', 'list']);
    assert.equal(none.code, 3, none.stderr);
    assert.match(none.stderr, /Not logged in: run `linkpix login`/);

    const refused = await cli(['login', '--url', h().baseUrl, '--key', 'lpx_wrong']);
    assert.equal(refused.code, 3, refused.stderr);
    assert.match(refused.stderr, /refused the key: nothing was saved/);
    assert.equal(existsSync(configFile()), false);

    const { key, email } = await h().account();
    const login = await cli(['login', '--url', `${h().baseUrl}/`, '--key', key]);
    assert.equal(login.code, 0, login.stderr);
    assert.match(login.stdout, new RegExp(`Logged in to ${h().baseUrl} as ${email}`));
    assert.equal(statSync(configFile()).mode & 0o777, 0o600);
    assert.equal(statSync(join(home, 'config', 'linkpix')).mode & 0o777, 0o700);
    assert.deepEqual(JSON.parse(readFileSync(configFile(), 'utf8')), { url: h().baseUrl, api_key: key });

    // Asked on standard error, answered on standard input (the key never in the command line).
    const asked = await cli(['login', '--json'], {}, `${h().baseUrl}\n${key}\n`);
    assert.equal(asked.code, 0, asked.stderr);
    assert.match(asked.stderr, /linkpix server URL: .*API key: /s);
    assert.equal(JSON.parse(asked.stdout).email, email);
  });

  test('shorten, links list, get, edit, stats, qr and delete, readable and --json', async () => {
    const made = await cli([
      'shorten',
      'https://example.com/cli',
      '--tag',
      'cli',
      '--tag',
      'Q3',
      '--title',
      'From CLI',
      '--json',
    ]);
    assert.equal(made.code, 0, made.stderr);
    const link: Json = JSON.parse(made.stdout);
    assert.equal(link.url, 'https://example.com/cli');
    assert.equal(link.title, 'From CLI');
    assert.deepEqual(link.tags, ['cli', 'Q3']);
    assert.equal(link.status, undefined, 'the record, not the envelope');

    const plain = await cli(['shorten', 'https://example.com/plain', '--alias', `plain-${h().engine}`]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout, `http://short.test/plain-${h().engine}\n`, 'the short URL alone');

    const list = await cli(['links', 'list']);
    assert.equal(list.code, 0, list.stderr);
    const lines = list.stdout.split('\n');
    assert.match(lines[0]!, /^ID\s+SHORT URL\s+CLICKS\s+DESTINATION\s+TAGS$/);
    assert.ok(
      lines.some((l) =>
        new RegExp(`^${link.id}\\s+${link.short_url}\\s+0\\s+https://example.com/cli\\s+cli, Q3$`).test(l),
      ),
    );
    assert.match(list.stdout, /page 1 of 1, 2 links\n$/);
    const tagged = await cli(['links', 'list', '--tag', 'q3', '--json']);
    assert.deepEqual(
      JSON.parse(tagged.stdout).map((l: Json) => l.id),
      [link.id],
    );

    const got = await cli(['links', 'get', String(link.id)]);
    assert.equal(got.code, 0, got.stderr);
    assert.match(got.stdout, /^id:\s+\d+$/m);
    assert.match(got.stdout, /^destination:\s+https:\/\/example\.com\/cli$/m);

    const edited = await cli(['links', 'edit', String(link.id), '--url', 'https://example.com/edited', '--json']);
    assert.equal(edited.code, 0, edited.stderr);
    assert.equal(JSON.parse(edited.stdout).url, 'https://example.com/edited');
    assert.equal(JSON.parse(edited.stdout).title, 'From CLI');

    for (let i = 0; i < 2; i++) assert.equal((await visit(h(), `/${link.alias}`)).status, 302);
    await h().server.container.visits.sink.flush();
    const stats = await cli(['stats', String(link.id)]);
    assert.equal(stats.code, 0, stats.stderr);
    assert.match(
      stats.stdout,
      /^clicks from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d \(UTC\): 2 clicks, 1 unique visitors, 0 bots/,
    );
    assert.match(stats.stdout, /^VALUE\s+CLICKS$/m);
    const statsJson: Json = JSON.parse((await cli(['stats', String(link.id), '--json'])).stdout);
    assert.equal(statsJson.stats.total, 2);
    assert.equal(statsJson.data.length, 30, 'every day of the range, whatever the pages');

    const png = join(home, 'code.png');
    const qr = await cli(['qr', String(link.id), '--out', png, '--size', '128']);
    assert.equal(qr.code, 0, qr.stderr);
    assert.deepEqual([...readFileSync(png).subarray(0, 8)], PNG_SIGNATURE);

    const deleted = await cli(['links', 'delete', String(link.id)]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(deleted.stdout, `Deleted link ${link.id}.\n`);
    const gone = await cli(['links', 'get', String(link.id)]);
    assert.equal(gone.code, 1);
    assert.equal(gone.stderr, 'Resource not found.\n');
  });

  test('exit codes: 1 for a refusal (fields named), 2 for a wrong command line', async () => {
    const invalid = await cli(['shorten', 'javascript:alert(1)']);
    assert.equal(invalid.code, 1);
    assert.match(invalid.stderr, /^url: /m);
    for (const args of [
      ['shorten'],
      ['shorten', 'https://example.com', '--colour', 'red'],
      ['links', 'get', 'seven'],
      ['links', 'edit', '1'],
      ['links'],
      ['qr', '1'],
      ['stats', '1', '--name', 'moons'],
    ]) {
      const wrong = await cli(args);
      assert.equal(wrong.code, 2, `${args.join(' ')}: ${wrong.code} ${wrong.stderr}`);
      assert.match(wrong.stderr, /Usage: linkpix /);
    }
    const help = await cli(['shorten', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: linkpix shorten URL/);
  });

  test('LINKPIX_URL and LINKPIX_API_KEY stand in for a login, here and through `npx linkpix`', async () => {
    const { key } = await h().account();
    const elsewhere = mkdtempSync(join(tmpdir(), 'linkpix-nologin-'));
    try {
      const vars = {
        HOME: elsewhere,
        XDG_CONFIG_HOME: join(elsewhere, 'config'),
        LINKPIX_URL: h().baseUrl,
        LINKPIX_API_KEY: key,
      };
      const made = await cli(['shorten', 'https://example.com/env', '--json'], vars);
      assert.equal(made.code, 0, made.stderr);
      assert.equal(JSON.parse(made.stdout).url, 'https://example.com/env');
      const npx = await run(
        'npx',
        ['--offline', 'linkpix', 'shorten', 'https://example.com/npx', '--json'],
        { ...env, ...vars },
        ROOT,
      );
      assert.equal(npx.code, 0, npx.stderr);
      assert.equal(JSON.parse(npx.stdout).url, 'https://example.com/npx');
      const refused = await cli(['links', 'list'], { ...vars, LINKPIX_API_KEY: 'lpx_revoked' });
      assert.equal(refused.code, 3, refused.stderr);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  test('logout forgets the key: then not logged in', async () => {
    const out = await cli(['logout']);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(existsSync(configFile()), false);
    assert.equal((await cli(['links', 'list'])).code, 3);
    assert.equal((await cli(['logout'])).stdout, 'Not logged in.\n');
  });
});

test("`npx linkpix` and the workspace's node_modules/.bin/linkpix both keep the operator's commands", async () => {
  for (const [command, args] of [
    ['npx', ['--offline', 'linkpix', '--help']],
    [process.execPath, [join(ROOT, 'node_modules', '.bin', 'linkpix'), '--help']],
  ] as const) {
    const ran = await run(command, [...args], {}, ROOT);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /users create --email E/);
    assert.match(ran.stdout, /login, logout, shorten, links, stats, qr/);
  }
});
