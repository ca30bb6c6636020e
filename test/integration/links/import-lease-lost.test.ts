// An import that loses its lease midway stops between two batches (docs/design/imports.md), on
// both engines: the real importer, reading thread and lease rows, with the slots' clock the
// test's own so that a renewal falls due exactly between the first batch and the second.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onEachEngine } from '../../support/harness.ts';
import { importFile } from '../../../src/adapters/import/import-file.ts';
import { ImportSlots } from '../../../src/adapters/import/import-slots.ts';
import { ImportLeaseLostError, LEASE_MS } from '../../../src/adapters/import/import-ticket.ts';
import { SqlImportLeases } from '../../../src/adapters/storage/stores/import-lease-store.ts';
import { IMPORT_BATCH } from '../../../src/core/links/import/link-importer.ts';

const ROWS = IMPORT_BATCH * 4;

onEachEngine('an import whose lease is lost', (h) => {
  const db = () => h().server.container.storage.db;

  /** A CSV of ROWS short links (every batch IMPORT_BATCH of them), and its aliases in file order. */
  function csv(t: { after(fn: () => void): void }, prefix: string): { path: string; aliases: string[] } {
    const dir = mkdtempSync(join(tmpdir(), 'linkpix-lease-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const aliases = Array.from({ length: ROWS }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);
    const path = join(dir, 'links.csv');
    writeFileSync(path, `alias,url\n${aliases.map((a) => `${a},https://example.com/${a}`).join('\n')}\n`);
    return { path, aliases };
  }

  /**
   * The file imported under a ticket of slots on the test's clock: `meanwhile` runs once the
   * leases are taken and before the first batch; after the first batch the clock moves on by
   * `advance`, so the second batch's hold finds a renewal due and asks the database.
   */
  async function run(
    accountId: number,
    path: string,
    advance: number,
    meanwhile: () => Promise<unknown> = async () => {},
  ) {
    const clock = { now: Date.now() };
    const slots = new ImportSlots(new SqlImportLeases(db()), 1, () => clock.now);
    const ticket = await slots.acquire({ workspaceId: accountId, personId: accountId });
    let batches = 0;
    try {
      await meanwhile();
      return await importFile(h().server.container.importer, { id: accountId, timezone: 'UTC' }, path, {
        onConflict: 'skip',
        actor: { userId: null, keyId: null, via: 'import' },
        dryRun: false,
        urlSchemes: ['http', 'https'],
        lease: ticket,
        onProgress: () => {
          if (++batches === 1) clock.now += advance;
        },
      });
    } finally {
      await ticket.release();
    }
  }

  const written = async (accountId: number) =>
    (await db().selectFrom('links').select('alias').where('account_id', '=', accountId).orderBy('alias').execute()).map(
      (r) => r.alias,
    );

  test('taken over by another holder: the next renewal says so and the import stops; only whole batches before it are written', async (t) => {
    const { id } = await h().account();
    const { path, aliases } = csv(t, 'lost');
    // Another instance took the lease over (the row's holder is no longer this import's); the
    // first batch's hold needs no renewal yet, the second's does.
    const takenOver = run(id, path, LEASE_MS, () =>
      db().updateTable('import_leases').set({ holder: 'another-instance' }).where('account_id', '=', id).execute(),
    );
    await assert.rejects(takenOver, ImportLeaseLostError);
    assert.deepEqual(await written(id), aliases.slice(0, IMPORT_BATCH), 'the first batch, whole, and nothing after it');
    const rows = await db().selectFrom('import_leases').select('holder').where('account_id', '=', id).execute();
    assert.deepEqual(rows, [{ holder: 'another-instance' }], "the other holder's lease is not given back by this one");
  });

  test('a renewal due while the lease is still ours goes on: the database decides, not the clock', async (t) => {
    const { id } = await h().account();
    const { path, aliases } = csv(t, 'kept');
    const report = await run(id, path, LEASE_MS * 2);
    assert.equal(report.counts.created, ROWS);
    assert.deepEqual(await written(id), aliases);
  });
});
