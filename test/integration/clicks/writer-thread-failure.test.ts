// The SQLite writer thread is a long-lived client too: when it fails (here it cannot open its
// database), the failure reaches onError once, whoever waits on it is answered, and the process
// carries on — no 'error' event without a listener, no unhandled rejection.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handOver, toBatch } from '../../support/click-hand-over.ts';
import { WorkerClickStore } from '../../../src/adapters/clicks/thread/worker-click-store.ts';
import { aClick } from '../../support/clicks.ts';

const click = aClick();

test('a writer thread that fails is reported once; settle() is answered; the next batch starts a new thread', async () => {
  const errors: Error[] = [];
  // A file where the database's directory should be: the thread fails as it opens the database.
  const dir = mkdtempSync(join(tmpdir(), 'linkpix-writer-failure-'));
  writeFileSync(join(dir, 'file'), '');
  const store = new WorkerClickStore(
    {
      engine: 'sqlite',
      maxBuffered: 1_000_000,
      databaseUrl: `sqlite:${join(dir, 'file', 'clicks.db')}`,
      writeIntervalMs: 20,
      rollupIntervalMs: 0,
    },
    { onError: (error) => errors.push(error as Error) },
  );
  after(() => rmSync(dir, { recursive: true, force: true }));
  handOver(store, toBatch([{ click }]));
  await assert.rejects(store.settle());
  // The 'exit' that follows the 'error' is not told again.
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(errors.length, 1, errors.map((e) => e.message).join('; '));
  assert.match(errors[0]!.message, /click writer thread failed; clicks it had not written are lost/);

  handOver(store, toBatch([{ click }]));
  await assert.rejects(store.settle());
  // settle() may be refused before the thread's 'error' arrives: told once it does.
  for (const until = Date.now() + 5000; errors.length < 2 && Date.now() < until;)
    await new Promise((r) => setTimeout(r, 20));
  assert.equal(errors.length, 2);
  await store.close();
  assert.equal(errors.length, 2, 'close() tells nothing more');
});
