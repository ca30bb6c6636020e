import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, startHarness } from '../support/harness.ts';
import { BIN, cliDatabase, run } from '../support/processes.ts';
import { redirectsTo, visit } from '../integration/redirect/redirect-support.ts';

// The commands themselves are tested in this process (test/integration/cli/); here, the binary:
// its own process, its arguments, its standard input and output, its exit codes.
for (const engine of ENGINES) {
  describe(`the linkpix command, a process of its own [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    let env: Record<string, string>;
    let cleanup: () => Promise<void>;
    const cli = (args: string[], input?: string) => run(process.execPath, [BIN, ...args], env, undefined, input);

    before(async () => {
      ({ env, cleanup } = await cliDatabase(engine.name));
    });
    after(() => cleanup());

    test('migrates, creates an account printed as JSON, reads a password from standard input, and exits 2 on misuse', async () => {
      const migrated = await cli(['migrate']);
      assert.equal(migrated.code, 0, migrated.stderr);
      assert.ok(JSON.parse(migrated.stdout).applied.length >= 1);

      const made = await cli(['users', 'create', '--email', 'ops@example.com']);
      assert.equal(made.code, 0, made.stderr);
      assert.match(JSON.parse(made.stdout).api_key, /^lpx_[A-Za-z0-9_-]{43}$/);

      const set = await cli(
        ['users', 'password', 'ops@example.com'],
        'a long enough passphrase\nignored second line\n',
      );
      assert.equal(set.code, 0, set.stderr);
      assert.equal(JSON.parse(set.stdout).password_set, true);

      const misuse = await cli(['users', 'create']);
      assert.equal(misuse.code, 2);
      assert.match(misuse.stderr, /--email is required/);
      assert.match(misuse.stderr, /Usage: linkpix <command>/);
    });
  });
}

describe('the linkpix command beside a running instance, with Redis', () => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;

  before(async () => {
    ({ env, cleanup } = await cliDatabase('sqlite'));
  });
  after(() => cleanup());

  test('a domain the CLI verifies serves on the running instance at once', async () => {
    const shared = {
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `lp_cli_${process.pid}_${Date.now()}:`,
    };
    const owner = await run(process.execPath, [BIN, 'users', 'create', '--email', 'redis-shop@example.com'], env);
    assert.equal(owner.code, 0, owner.stderr);
    const key = JSON.parse(owner.stdout).api_key as string;
    // A long cache TTL: only the broadcast can make the server see the change in time.
    const h = await startHarness('sqlite', {
      env: { DATABASE_URL: env.DATABASE_URL!, ...shared },
      overrides: { tuning: { LINK_CACHE_TTL_MS: 300000 } },
    });
    try {
      const domain = (await h.request('POST', '/api/v1/domains', { key, form: { name: 'bus.example.com' } })).body.data;
      const link = (
        await h.request('POST', '/api/v1/links', { key, form: { url: 'https://example.com/bus', domain: domain.id } })
      ).body.data;
      assert.equal((await visit(h, `/${link.alias}`, { host: 'bus.example.com' })).status, 404, 'pending: not served');
      const verified = await run(process.execPath, [BIN, 'domains', 'verify', 'bus.example.com'], {
        ...env,
        ...shared,
      });
      assert.equal(verified.code, 0, verified.stderr);
      const until = Date.now() + 5000; // far below the 30 s reload: only the broadcast can do it
      let status = 404;
      while (
        (status = (await visit(h, `/${link.alias}`, { host: 'bus.example.com' })).status) === 404 &&
        Date.now() < until
      ) {
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(
        status,
        302,
        `still ${status} 5 s after the CLI verified the domain; the CLI said: ${verified.stdout}${verified.stderr}`,
      );
      assert.equal(await redirectsTo(h, `/${link.alias}`, { host: 'bus.example.com' }), 'https://example.com/bus');
    } finally {
      await h.close();
    }
  });
});
