import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngineWithCli } from '../../support/cli.ts';
import { redirectsTo, visit } from '../redirect/redirect-support.ts';

onEachEngineWithCli('linkpix CLI', ({ cli, startServer }) => {
  test('migrate applies the schema once', async () => {
    const first = await cli('migrate');
    assert.equal(first.code, 0, first.stderr);
    assert.ok(JSON.parse(first.stdout).applied.length >= 1);
    const again = await cli('migrate');
    assert.deepEqual(JSON.parse(again.stdout).applied, []);
  });

  test('users create prints the account with a fresh key, once', async () => {
    const made = await cli(
      'users',
      'create',
      '--email',
      'Ops@Example.com',
      '--name',
      'Ops',
      '--timezone',
      'Europe/Paris',
    );
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
    const h = await startServer();
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

  test('--workspace ID: keys and domain claims of the person in a team workspace; a non-member is refused', async () => {
    const owner = JSON.parse((await cli('users', 'create', '--email', 'ws-owner@example.com')).stdout);
    const member = JSON.parse((await cli('users', 'create', '--email', 'ws-member@example.com')).stdout);
    assert.equal((await cli('users', 'create', '--email', 'ws-stranger@example.com')).code, 0);
    const h = await startServer();
    try {
      const team = (await h.request('POST', '/api/v1/workspaces', { key: owner.api_key, json: { name: 'Team' } })).body
        .data;
      const invited = (
        await h.request('POST', `/api/v1/workspaces/${team.id}/invitations`, {
          key: owner.api_key,
          json: { email: 'ws-member@example.com', role: 'editor' },
        })
      ).body.data;
      assert.equal(
        (await h.request('POST', `/api/v1/invitations/${invited.token}/accept`, { key: member.api_key })).status,
        200,
      );

      const made = await cli(
        'keys',
        'create',
        '--email',
        'ws-member@example.com',
        '--workspace',
        String(team.id),
        '--name',
        'ci',
      );
      assert.equal(made.code, 0, made.stderr);
      const out = JSON.parse(made.stdout);
      assert.equal(out.workspace_id, team.id);
      assert.equal(
        (await h.request('GET', '/api/v1/account', { key: out.api_key })).body.data.id,
        team.id,
        'the key acts in the team',
      );
      const inTeam = JSON.parse(
        (await cli('keys', 'list', '--email', 'ws-member@example.com', '--workspace', String(team.id))).stdout,
      );
      assert.deepEqual(
        inTeam.keys.map((k: { id: number }) => k.id),
        [out.key_id],
      );
      const personal = JSON.parse((await cli('keys', 'list', '--email', 'ws-member@example.com')).stdout);
      assert.ok(
        !personal.keys.some((k: { id: number }) => k.id === out.key_id),
        'the default is their personal workspace',
      );

      const stranger = await cli(
        'keys',
        'create',
        '--email',
        'ws-stranger@example.com',
        '--workspace',
        String(team.id),
      );
      assert.equal(stranger.code, 1);
      assert.match(stranger.stderr, /workspace: ws-stranger@example\.com is not a member of workspace/);
      const bad = await cli('keys', 'list', '--email', 'ws-member@example.com', '--workspace', 'team');
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /workspace: --workspace must be a workspace id/);

      const teamKey = (
        await h.request('POST', `/api/v1/workspaces/${team.id}/api-keys`, {
          key: owner.api_key,
          json: { name: 'owner' },
        })
      ).body.data.key;
      const claimed = (await h.request('POST', '/api/v1/domains', { key: teamKey, form: { name: 'team.example.com' } }))
        .body.data;
      const notTheirs = await cli('domains', 'verify', 'team.example.com', '--email', 'ws-member@example.com');
      assert.equal(notTheirs.code, 1, 'without --workspace: the personal workspace claims nothing');
      const verified = await cli(
        'domains',
        'verify',
        'team.example.com',
        '--email',
        'ws-member@example.com',
        '--workspace',
        String(team.id),
      );
      assert.equal(verified.code, 0, verified.stderr);
      assert.equal(JSON.parse(verified.stdout).id, claimed.id);

      const revoked = await cli(
        'keys',
        'revoke',
        '--email',
        'ws-member@example.com',
        '--workspace',
        String(team.id),
        '--id',
        String(out.key_id),
      );
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.equal((await h.request('GET', '/api/v1/account', { key: out.api_key })).status, 401);
    } finally {
      await h.close();
    }
  });

  test("domains verify, reserve and unreserve act on the names the server's accounts claim", async () => {
    const a = JSON.parse((await cli('users', 'create', '--email', 'shop-a@example.com')).stdout);
    const b = JSON.parse((await cli('users', 'create', '--email', 'shop-b@example.com')).stdout);
    const h = await startServer();
    try {
      const claim = (key: string, name: string) => h.request('POST', '/api/v1/domains', { key, form: { name } });
      const mine = (await claim(a.api_key, 'shop.example.com')).body.data;
      assert.equal(mine.status, 'pending');
      assert.equal((await claim(b.api_key, 'shop.example.com')).status, 201);
      const link = (
        await h.request('POST', '/api/v1/links', {
          key: a.api_key,
          form: { url: 'https://example.com/shop', domain: mine.id },
        })
      ).body.data;

      const which = await cli('domains', 'verify', 'shop.example.com');
      assert.equal(which.code, 1);
      assert.match(which.stderr, /2 accounts claim shop\.example\.com: say whose with --email/);
      const verified = await cli('domains', 'verify', 'SHOP.example.com', '--email', 'shop-a@example.com');
      assert.equal(verified.code, 0, verified.stderr);
      assert.deepEqual(JSON.parse(verified.stdout), {
        ...JSON.parse(verified.stdout),
        id: mine.id,
        name: 'shop.example.com',
        account_id: a.id,
        status: 'verified',
      });
      assert.equal(
        (await h.request('GET', `/api/v1/domains/${mine.id}`, { key: a.api_key })).body.data.status,
        'verified',
      );
      // Without Redis, the server learns of a domain the CLI verified when it next reloads its
      // domain names (every LINK_CACHE_TTL_MS, here 1 s).
      const until = Date.now() + 5000;
      while ((await visit(h, `/${link.alias}`, { host: 'shop.example.com' })).status === 404 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.equal(await redirectsTo(h, `/${link.alias}`, { host: 'shop.example.com' }), 'https://example.com/shop');
      const second = await cli('domains', 'verify', 'shop.example.com', '--email', 'shop-b@example.com');
      assert.equal(second.code, 1);
      assert.match(second.stderr, /name: The name has already been taken\./);

      const reserved = await cli('domains', 'reserve', 'brand.example.com');
      assert.equal(reserved.code, 0, reserved.stderr);
      assert.deepEqual(JSON.parse(reserved.stdout), {
        name: 'brand.example.com',
        reserved: true,
        already: false,
        claims: [],
      });
      const refused = await claim(b.api_key, 'brand.example.com');
      assert.equal(refused.status, 422);
      assert.deepEqual(refused.body.message, { name: ['The name is reserved.'] });
      const unreserved = await cli('domains', 'unreserve', 'brand.example.com');
      assert.deepEqual(JSON.parse(unreserved.stdout), {
        name: 'brand.example.com',
        reserved: false,
        was_reserved: true,
      });
      assert.equal((await claim(b.api_key, 'brand.example.com')).status, 201);

      const nobody = await cli('domains', 'verify', 'nobody.example.com');
      assert.equal(nobody.code, 1);
      assert.match(nobody.stderr, /No such domain/);
      const bad = await cli('domains', 'reserve', 'not a host');
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /name: The name format is invalid\./);
      assert.equal((await cli('domains', 'verify')).code, 2);
      assert.equal(
        (await cli('users', 'create', 'extra', '--email', 'x@example.com')).code,
        2,
        'a command without arguments takes none',
      );
    } finally {
      await h.close();
    }
  });
});
