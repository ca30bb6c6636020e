// The CLI's writes in the audit log (issue 33, docs/adr/0071): `linkpix import` writes one entry per
// link, `via: "import"`, with no person (the operator ran it); both engines.
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
          .map((e: { via: string; actor: { user_id: number | null }; key: unknown; changes: { alias: [null, string] } }) => [
            e.via,
            e.actor.user_id,
            e.key,
            e.changes.alias[1],
          ])
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
});
