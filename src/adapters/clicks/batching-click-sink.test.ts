import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Click } from '../../core/clicks/click.ts';
import type { ClickBatch, ClickStore } from '../../core/clicks/ports.ts';
import { BatchingClickSink } from './batching-click-sink.ts';

const click = (linkId: number, isBot = false): Click => ({
  linkId, accountId: 1, at: 0, day: '2026-11-23', hour: 0, visitor: null, country: null, city: null,
  browser: null, platform: null, device: null, language: null, referrerHost: null, isBot,
});

class FakeStore implements ClickStore {
  batches: ClickBatch[] = [];
  failures = 0;
  async writeBatch(batch: ClickBatch): Promise<void> {
    if (this.failures > 0) {
      this.failures--;
      throw new Error('database away');
    }
    this.batches.push(batch);
  }
  get written(): number {
    return this.batches.reduce((n, b) => n + b.clicks.length, 0);
  }
}

test('batches at most maxBatch clicks, counts humans only, keeps the last rotation', async () => {
  const store = new FakeStore();
  const sink = new BatchingClickSink(store, { intervalMs: 10_000, maxBatch: 3, onError: assert.fail });
  sink.record(click(1), 0);
  sink.record(click(1), 1);
  sink.record(click(2, true));
  sink.record(click(2));
  await sink.close();
  assert.deepEqual(store.batches.map((b) => b.clicks.length), [3, 1]);
  assert.deepEqual([...store.batches[0]!.counts], [[1, 2]]);
  assert.deepEqual([...store.batches[0]!.rotations], [[1, 1]]);
  assert.deepEqual([...store.batches[1]!.counts], [[2, 1]]);
});

test('a failed batch is kept and written later; close() writes everything', async () => {
  const store = new FakeStore();
  store.failures = 2;
  const errors: unknown[] = [];
  const sink = new BatchingClickSink(store, { intervalMs: 5, maxBatch: 100, onError: (e) => errors.push(e) });
  for (let i = 0; i < 10; i++) sink.record(click(i));
  await sink.close();
  assert.equal(store.written, 10);
  assert.equal(sink.pending, 0);
  assert.ok(errors.length >= 1);
});

test('when the database never comes back, close() says how many clicks are lost', async () => {
  const store = new FakeStore();
  store.failures = Infinity;
  const errors: Error[] = [];
  const sink = new BatchingClickSink(store, { intervalMs: 10_000, maxBatch: 100, onError: (e) => errors.push(e as Error) });
  sink.record(click(1));
  sink.record(click(2));
  await sink.close();
  assert.match(errors.at(-1)!.message, /^2 buffered clicks could not be written/);
});
