// The CLI's writes in the audit log (docs/design/teams.md): `linkpix import` writes one entry per
// link, `via: "import"`, with no person (the operator ran it); keys made and revoked and a domain
// verified by the operator: `via: "cli"`, no person; both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onEachEngineWithCli } from '../../support/cli.ts';

onEachEngineWithCli('linkpix import: audit entries', ({ cli, startServer }) => {
  test('one link.created entry per imported link, via import, no person and no key', async () => {
    const made = await cli('users', 'create', '--email', 'audit-cli@example.com');
    assert.equal(made.code, 0, made.stderr);
    const { id, api_key: key } = JSON.parse(made.stdout);
    const dir = mkdtempSync(join(tmpdir(), 'linkpix-audit-'));
    try {
      const file = join(dir, 'links.csv');
      writeFileSync(file, 'url,alias\nhttps://example.com/c1,cli-a1\nhttps://example.com/c2,cli-a2\n');
      const done = await cli('import', file, '--email', 'audit-cli@example.com', '--format', 'csv');
      assert.equal(done.code, 0, done.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const server = await startServer();
    try {
      const res = await server.request('GET', `/api/v1/workspaces/${id}/audit?action=link.created`, { key });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.body.data
          .map(
            (e: {
              via: string;
              actor: { user_id: number | null };
              key: unknown;
              changes: { alias: [null, string] };
            }) => [e.via, e.actor.user_id, e.key, e.changes.alias[1]],
          )
          .sort(),
        [
          ['import', null, null, 'cli-a1'],
          ['import', null, null, 'cli-a2'],
        ],
      );
    } finally {
      await server.close();
    }
  });

  test('keys create and revoke (by id and by value) and domains verify: entries via the CLI, no person, no key value', async () => {
    const made = await cli('users', 'create', '--email', 'audit-keys@example.com');
    assert.equal(made.code, 0, made.stderr);
    const { id, api_key: key } = JSON.parse(made.stdout);
    const second = JSON.parse(
      (await cli('keys', 'create', '--email', 'audit-keys@example.com', '--name', 'second')).stdout,
    );
    const third = JSON.parse(
      (await cli('keys', 'create', '--email', 'audit-keys@example.com', '--name', 'third')).stdout,
    );
    assert.equal(
      (await cli('keys', 'revoke', '--email', 'audit-keys@example.com', '--id', String(second.key_id))).code,
      0,
    );
    assert.equal((await cli('keys', 'revoke', '--key', third.api_key)).code, 0);
    const server = await startServer();
    let domainId: number;
    try {
      const domain = await server.request('POST', '/api/v1/domains', { key, form: { name: 'audit-cli.example.com' } });
      assert.equal(domain.status, 201, domain.text);
      domainId = domain.body.data.id;
    } finally {
      await server.close();
    }
    const verified = await cli('domains', 'verify', 'audit-cli.example.com', '--email', 'audit-keys@example.com');
    assert.equal(verified.code, 0, verified.stderr);
    const again = await startServer();
    try {
      const res = await again.request('GET', `/api/v1/workspaces/${id}/audit?per_page=100`, { key });
      assert.equal(res.status, 200, res.text);
      const cliEntries = res.body.data
        .filter((e: { via: string }) => e.via === 'cli')
        .map((e: { action: string; actor: { user_id: number | null }; key: unknown; target: { id: number } }) => [
          e.action,
          e.target.id,
          e.actor.user_id,
          e.key,
        ])
        .sort();
      assert.deepEqual(cliEntries, [
        ['api_key.created', second.key_id, null, null],
        ['api_key.created', third.key_id, null, null],
        ['api_key.revoked', second.key_id, null, null],
        ['api_key.revoked', third.key_id, null, null],
        ['domain.verified', domainId, null, null],
      ]);
      const text = JSON.stringify(res.body);
      for (const value of [key, second.api_key, third.api_key])
        assert.ok(!text.includes(value), 'no key value in the log');
    } finally {
      await again.close();
    }
  });
});
