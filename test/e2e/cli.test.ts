import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINES } from '../support/harness.ts';
import { BIN, isolatedPgUrl, run } from '../support/processes.ts';
import { startHarness } from '../support/harness.ts';

for (const engine of ENGINES) {
  describe(`linkpix CLI [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    let env: Record<string, string>;
    let cleanup: () => Promise<void>;
    const cli = (...args: string[]) => run(process.execPath, [BIN, ...args], env);

    before(async () => {
      if (engine.name === 'postgres') {
        const pg = await isolatedPgUrl(process.env.TEST_DATABASE_URL!);
        env = { DATABASE_URL: pg.url };
        cleanup = pg.drop;
      } else {
        const dir = mkdtempSync(join(tmpdir(), 'linkpix-cli-'));
        env = { DATABASE_URL: `sqlite:${join(dir, 'cli.db')}` };
        cleanup = async () => rmSync(dir, { recursive: true, force: true });
      }
    });
    after(() => cleanup());

    test('migrate applies the schema once', async () => {
      const first = await cli('migrate');
      assert.equal(first.code, 0, first.stderr);
      assert.ok(JSON.parse(first.stdout).applied.length >= 1);
      const again = await cli('migrate');
      assert.deepEqual(JSON.parse(again.stdout).applied, []);
    });

    test('users create prints the account with a fresh key, once', async () => {
      const made = await cli('users', 'create', '--email', 'Ops@Example.com', '--name', 'Ops', '--timezone', 'Europe/Paris');
      assert.equal(made.code, 0, made.stderr);
      const out = JSON.parse(made.stdout);
      assert.equal(out.email, 'ops@example.com');
      assert.equal(out.timezone, 'Europe/Paris');
      assert.match(out.api_key, /^lpx_[A-Za-z0-9_-]{43}$/);
      assert.equal(typeof out.id, 'number');
      const listed = await cli('keys', 'list', '--email', 'ops@example.com');
      assert.ok(!listed.stdout.includes(out.api_key), 'a listed key never shows its secret');
    });

    test('bad arguments exit non-zero with a clear message', async () => {
      const missing = await cli('users', 'create');
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /--email is required/);
      const unknown = await cli('frobnicate');
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /Unknown command/);
      const badFlag = await cli('users', 'create', '--email', 'x@example.com', '--nope');
      assert.equal(badFlag.code, 2);
      const badEmail = await cli('users', 'create', '--email', 'not-an-email');
      assert.equal(badEmail.code, 1);
      assert.match(badEmail.stderr, /email/);
      const badZone = await cli('users', 'create', '--email', 'z@example.com', '--timezone', 'Mars/Base');
      assert.equal(badZone.code, 1);
      assert.match(badZone.stderr, /timezone/);
      const twice = await cli('users', 'create', '--email', 'ops@example.com');
      assert.equal(twice.code, 1);
      assert.match(twice.stderr, /taken/);
      const nobody = await cli('keys', 'create', '--email', 'nobody@example.com');
      assert.equal(nobody.code, 1);
      assert.match(nobody.stderr, /No such account/);
    });

    test('keys made and revoked by the CLI work against the server on the same database', async () => {
      const made = JSON.parse((await cli('users', 'create', '--email', 'api@example.com')).stdout);
      const second = JSON.parse((await cli('keys', 'create', '--email', 'api@example.com', '--name', 'ci')).stdout);
      assert.notEqual(second.api_key, made.api_key);
      const h = await startHarnessOn(env.DATABASE_URL!);
      try {
        for (const key of [made.api_key, second.api_key]) {
          assert.equal((await h.request('GET', '/api/v1/account', { key })).status, 200);
        }
        const byValue = await cli('keys', 'revoke', '--key', made.api_key);
        assert.equal(byValue.code, 0, byValue.stderr);
        const byId = await cli('keys', 'revoke', '--email', 'api@example.com', '--id', String(second.key_id));
        assert.equal(byId.code, 0, byId.stderr);
        for (const key of [made.api_key, second.api_key]) {
          assert.equal((await h.request('GET', '/api/v1/account', { key })).status, 401);
        }
        const again = await cli('keys', 'revoke', '--key', made.api_key);
        assert.equal(again.code, 1);
      } finally {
        await h.close();
      }
    });
  });
}

/** A server on the CLI's own database (not a fresh one), to prove they share it. */
async function startHarnessOn(databaseUrl: string) {
  return startHarness('sqlite', { env: { DATABASE_URL: databaseUrl } });
}
