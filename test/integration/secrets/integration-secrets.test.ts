// Integrations' sealed columns (docs/design/secrets.md, docs/design/integrations.md), on both
// engines: a rotation reseals an integration's token and signing secret with the two-factor
// seeds, and forgetting a lost key removes the integration, its events and says so in its
// workspace's audit log, once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachSqlEngine } from '../../contracts/sql-database.ts';
import { sqlOwners } from '../../contracts/sql-owners.ts';
import type { Storage } from '../../../src/adapters/storage/connect.ts';
import { SealKeys } from '../../../src/adapters/secrets/seal-keys.ts';
import { newSealKeyText, sealKeyOf } from '../../../src/adapters/secrets/seal-key.ts';
import { SecretBox } from '../../../src/adapters/secrets/secret-box.ts';
import { SqlIntegrationStore } from '../../../src/adapters/storage/stores/integration-store.ts';

function holder(storage: Storage, keys: string[]) {
  const sealKeys = new SealKeys({
    db: storage.db,
    engine: storage.engine,
    source: { kind: 'env', keys },
    warn: () => {},
    clock: { now: () => 5000 },
  });
  return { keys: sealKeys, store: new SqlIntegrationStore(storage.db, new SecretBox(sealKeys)) };
}

async function clean(storage: Storage): Promise<void> {
  await storage.db.deleteFrom('integration_events').execute();
  await storage.db.deleteFrom('integrations').execute();
  await storage.db.deleteFrom('user_totp').execute();
}

async function integrate(h: ReturnType<typeof holder>, workspaceId: number, token: string) {
  const credentials = await h.store.seal({ token, secret: 'whsec_kept' });
  return h.store.insert(workspaceId, 'stripe', credentials, 1000);
}

onEachSqlEngine('integration secrets', (storage) => {
  test('a rotation reseals the token and the secret: the endpoint is still found and its secret opens', async () => {
    const s = storage();
    await clean(s);
    const [first, second] = [newSealKeyText(), newSealKeyText()];
    const before = holder(s, [first]);
    const workspace = await sqlOwners(s.db).account();
    const made = await integrate(before, workspace, 'token-rotated');
    const rotated = holder(s, [second, first]);
    assert.equal((await rotated.keys.rotate()).resealed, 2, 'both columns');
    const row = await s.db.selectFrom('integrations').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    for (const sealed of [row.token_box, row.secret_box])
      assert.match(sealed, new RegExp(`^v2\\.${sealKeyOf(second).id}\\.`));
    const found = await holder(s, [second]).store.findByToken('token-rotated');
    assert.deepEqual(
      [found?.integration.id, found?.integration.token, found?.secret],
      [made.id, 'token-rotated', 'whsec_kept'],
    );
  });

  test('forget-lost removes an integration no key opens, with its events, and one integration.removed entry by the CLI', async () => {
    const s = storage();
    await clean(s);
    const [lost, kept] = [newSealKeyText(), newSealKeyText()];
    const workspace = await sqlOwners(s.db).account();
    const gone = await integrate(holder(s, [lost]), workspace, 'token-gone');
    const stays = await integrate(holder(s, [kept, lost]), workspace, 'token-stays');
    assert.ok(await holder(s, [kept, lost]).store.claimEvent(gone.id, 'evt_1', 1000));
    const now = holder(s, [kept]);
    const forgotten = await now.keys.forgetLost({ keyIds: [sealKeyOf(lost).id] });
    assert.deepEqual(
      forgotten.map((r) => [r.column.what, Number(r.key)]),
      [['integration', gone.id]],
      'the row once, though both its columns were under the key',
    );
    assert.equal(await now.store.findByToken('token-gone'), null);
    assert.equal((await now.store.findByToken('token-stays'))?.integration.id, stays.id);
    const events = await s.db
      .selectFrom('integration_events')
      .selectAll()
      .where('integration_id', '=', gone.id)
      .execute();
    assert.deepEqual(events, []);
    const entries = await s.db
      .selectFrom('audit_entries')
      .select(['workspace_id', 'user_id', 'via', 'action', 'target_type', 'target_id'])
      .where('action', '=', 'integration.removed')
      .where('workspace_id', '=', workspace)
      .execute();
    assert.deepEqual(
      entries.map((e) => ({ ...e, target_id: Number(e.target_id), workspace_id: Number(e.workspace_id) })),
      [
        {
          workspace_id: workspace,
          user_id: null,
          via: 'cli',
          action: 'integration.removed',
          target_type: 'integration',
          target_id: gone.id,
        },
      ],
    );
  });
});
