import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importTempDir, LEFTOVER_AGE_MS, sweepImportLeftovers } from './import-temp.ts';

const aged = (path: string, ms: number) => {
  const then = new Date(Date.now() - ms);
  utimesSync(path, then, then);
};

test("a start's sweep removes upload directories older than the age, and nothing else", async (t) => {
  const parent = mkdtempSync(join(tmpdir(), 'sweep-'));
  t.after(() => rmSync(parent, { recursive: true, force: true }));
  const old = await importTempDir(parent);
  writeFileSync(join(old, 'upload'), 'url\nhttps://example.com/\n');
  aged(old, LEFTOVER_AGE_MS + 60_000);
  const fresh = await importTempDir(parent);
  aged(fresh, LEFTOVER_AGE_MS - 60_000);
  const other = join(parent, 'someone-else');
  mkdirSync(other);
  aged(other, LEFTOVER_AGE_MS * 10);
  const oldFile = join(parent, 'linkpix-import-file');
  writeFileSync(oldFile, '');
  aged(oldFile, LEFTOVER_AGE_MS * 10);
  const link = join(parent, 'linkpix-import-link');
  symlinkSync(other, link);

  assert.deepEqual(await sweepImportLeftovers({ parent }), [old]);
  assert.equal(existsSync(old), false);
  for (const kept of [fresh, other, oldFile, link]) assert.equal(existsSync(kept), true, kept);
});

test('a temporary directory that cannot be read is no failure', async () => {
  assert.deepEqual(await sweepImportLeftovers({ parent: join(tmpdir(), 'no-such-dir-of-linkpix') }), []);
});
