// The people's CLI (packages/cli) in-process against the server on each engine, with this
// checkout's SDK: `shorten --domain` takes the host name a person types (any case, a trailing
// dot, an internationalised name) or the domain's id, and the API's warnings go to stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { EXIT, run } from '../../../packages/cli/src/index.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** One command line run as a person would, with LINKPIX_URL and LINKPIX_API_KEY set. */
async function cli(h: Harness, key: string, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t) };
  const env = { LINKPIX_URL: h.baseUrl, LINKPIX_API_KEY: key, HOME: '/nonexistent' };
  const code = await run(args, env, { ...io, input: new PassThrough(), errors: new PassThrough() });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

async function domain(h: Harness, key: string, name: string): Promise<number> {
  const res = await h.request('POST', '/api/v1/domains', { key, json: { name } });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id as number;
}

onEachEngine('linkpix shorten --domain', (h) => {
  test('a host name, in any case or with a trailing dot, is the workspace’s domain of that name', async () => {
    const { key } = await h().account();
    const id = await domain(h(), key, 'go.brand-cli.example');
    await domain(h(), key, 'brand-cli.example');
    for (const typed of ['go.brand-cli.example', 'GO.Brand-CLI.example.']) {
      const made = await cli(h(), key, ['shorten', 'https://example.com/d', '--domain', typed, '--json']);
      assert.equal(made.code, EXIT.ok, made.stderr);
      const link: Json = JSON.parse(made.stdout);
      assert.equal(link.domain.id, id);
      assert.match(link.short_url, /^https?:\/\/go\.brand-cli\.example\//);
    }
    const byId = await cli(h(), key, ['shorten', 'https://example.com/i', '--domain', String(id), '--json']);
    assert.equal(byId.code, EXIT.ok, byId.stderr);
    assert.equal(JSON.parse(byId.stdout).domain.id, id, 'an id still works');
  });

  test('an internationalised name is looked up in punycode', async () => {
    const { key } = await h().account();
    const id = await domain(h(), key, 'xn--bcher-kva.example');
    const made = await cli(h(), key, ['shorten', 'https://example.com/b', '--domain', 'Bücher.example', '--json']);
    assert.equal(made.code, EXIT.ok, made.stderr);
    assert.equal(JSON.parse(made.stdout).domain.id, id);
  });

  test('a name the workspace does not hold is exit 1, saying so; another workspace’s domain is not found', async () => {
    const other = await h().account();
    await domain(h(), other.key, 'theirs-cli.example');
    const { key } = await h().account();
    for (const name of ['nowhere-cli.example', 'theirs-cli.example']) {
      const missing = await cli(h(), key, ['shorten', 'https://example.com/n', '--domain', name]);
      assert.equal(missing.code, EXIT.api);
      assert.equal(missing.stderr, `No domain ${name} in this workspace (\`GET /api/v1/domains\` lists them).`);
    }
    const links = await h().request('GET', '/api/v1/links', { key });
    assert.equal(links.body.meta.total, 0, 'nothing created');
  });

  test('shorten and links edit print the API’s warnings on stderr; stdout stays the record', async () => {
    const { key } = await h().account();
    const res = await h().request('POST', '/api/v1/links', { key, json: { url: 'https://example.com/w' } });
    const id = String(res.body.data.id);
    const split = JSON.stringify([
      {
        when: {},
        split: [
          { url: 'https://x.example/', weight: 60 },
          { url: 'https://y.example/', weight: 60 },
        ],
      },
    ]);
    // The CLI has no --rules flag: the rules are set through the API, then an edit answers their warning.
    const ruled = await h().request('PUT', `/api/v1/links/${id}`, { key, json: { rules: JSON.parse(split) } });
    assert.equal(ruled.status, 200, ruled.text);
    const edited = await cli(h(), key, ['links', 'edit', id, '--title', 'Warned', '--json']);
    assert.equal(edited.code, EXIT.ok, edited.stderr);
    assert.match(edited.stderr, /^warning: rules\.0\.split: /);
    const link: Json = JSON.parse(edited.stdout);
    assert.equal(link.title, 'Warned');
    assert.equal(link.warnings, undefined);
  });
});
