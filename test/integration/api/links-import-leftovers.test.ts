// A killed instance leaves its import upload in the system's temporary directory: the next start
// removes those older than LEFTOVER_AGE_MS, in the background (docs/design/imports.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness } from '../../support/harness.ts';
import { importTempDir, LEFTOVER_AGE_MS } from '../../../src/adapters/import/import-temp.ts';

test('a start removes an old import upload left in the temporary directory, and keeps a recent one', async (t) => {
  const old = await importTempDir();
  const recent = await importTempDir();
  t.after(() => {
    for (const dir of [old, recent]) rmSync(dir, { recursive: true, force: true });
  });
  writeFileSync(join(old, 'upload'), 'url\nhttps://example.com/left\n');
  const then = new Date(Date.now() - LEFTOVER_AGE_MS - 60_000);
  utimesSync(old, then, then);
  const h = await startHarness('sqlite');
  try {
    await h.server.leftoversSwept;
    assert.equal(existsSync(old), false, 'the old upload is removed');
    assert.equal(existsSync(recent), true, "a recent one may be another instance's, still running");
  } finally {
    await h.close();
  }
});
