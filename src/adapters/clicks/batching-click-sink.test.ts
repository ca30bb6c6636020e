import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Click } from '../../core/clicks/click.ts';
import type { ClickBatch, ClickStore } from '../../core/clicks/ports.ts';
import { BatchingClickSink } from './batching-click-sink.ts';
import { aClick } from '../../../test/support/clicks.ts';

const click = (linkId: number, isBot = false): Click => aClick({ linkId, isBot });

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
  assert.deepEqual(
    store.batches.map((b) => b.clicks.length),
    [3, 1],
  );
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

test('while writes fail: one error, retries back off, and past maxBuffered newer clicks are dropped and counted', async (t) => {
  // Time is the subject: mocked, advanced a millisecond at a time with the writes' promises settled in between.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const advance = async (ms: number) => {
    for (let i = 0; i < ms; i++) {
      t.mock.timers.tick(1);
      await new Promise<void>((r) => setImmediate(r));
    }
  };
  const store = new FakeStore();
  store.failures = Infinity;
  let attempts = 0;
  const write = store.writeBatch.bind(store);
  store.writeBatch = (batch) => {
    attempts++;
    return write(batch);
  };
  const errors: Error[] = [];
  const resumed: string[] = [];
  const sink = new BatchingClickSink(store, {
    intervalMs: 10,
    maxBatch: 2,
    maxBuffered: 5,
    onError: (e) => errors.push(e as Error),
    onResumed: (m) => resumed.push(m),
  });
  for (let i = 0; i < 3; i++) sink.record(click(i));
  await advance(50);
  // Attempts at 0 and 20 ms (the interval doubled after the first failure).
  const afterFirstFailure = attempts;
  assert.equal(afterFirstFailure, 2);
  // Clicks arriving while the database is away must not each set off a write.
  for (let i = 3; i < 8; i++) sink.record(click(i));
  assert.equal(attempts, afterFirstFailure);
  assert.equal(sink.pending, 5);
  assert.equal(sink.dropped, 3);
  await advance(300);
  // At 0, 20, 60, 140 and 300 ms (20, 40, 80, 160 apart): not one per interval or per click.
  assert.equal(attempts, 5);
  assert.deepEqual(
    errors.map((e) => e.message.replace(/\d+/g, 'N')),
    [
      'clicks not written; N kept and retried until the database answers',
      'click buffer full (N clicks waiting for the database): newer clicks are dropped until it is back',
    ],
  );

  store.failures = 0;
  await sink.flush();
  assert.equal(store.written, 5);
  assert.deepEqual(
    store.batches.flatMap((b) => b.clicks.map((c) => c.linkId)),
    [0, 1, 2, 3, 4],
    'the oldest kept, in order',
  );
  assert.equal(resumed.length, 1);
  assert.match(errors.at(-1)!.message, /^3 clicks were dropped while the click buffer was full/);
  // What GET /metrics reads: only the batch written is timed (one, the backlog at once).
  assert.deepEqual({ ...sink.meter, pending: sink.meter.pending, flushes: sink.meter.flushes.count }, { recorded: 8, written: 5, dropped: 3, pending: 0, flushes: 1 });
  await sink.close();
});

test('the retry keeps going without new clicks: written once the database is back', async () => {
  const store = new FakeStore();
  store.failures = 4;
  const sink = new BatchingClickSink(store, { intervalMs: 5, maxBatch: 100, maxBuffered: 1000, onError: () => {} });
  for (let i = 0; i < 10; i++) sink.record(click(i));
  const deadline = Date.now() + 3000;
  while (store.written < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.equal(store.written, 10);
  assert.equal(sink.pending, 0);
  await sink.close();
});

test('a backlog is written in larger batches, up to ten times maxBatch', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const store = new FakeStore();
  const slow: ClickStore = {
    async writeBatch(batch) {
      await gate;
      await store.writeBatch(batch);
    },
  };
  const sink = new BatchingClickSink(slow, { intervalMs: 10_000, maxBatch: 10, onError: assert.fail });
  for (let i = 0; i < 10; i++) sink.record(click(i));
  await new Promise((r) => setTimeout(r, 5)); // the first batch is being written
  for (let i = 0; i < 150; i++) sink.record(click(i % 7));
  release();
  await sink.close();
  assert.deepEqual(
    store.batches.map((b) => b.clicks.length),
    [10, 100, 50],
  );
  assert.equal(store.written, 160);
});

test("a write is due from its oldest click's record, not a whole interval after the hand-over or the last write", async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 10_000 });
  const store = new FakeStore();
  const sink = new BatchingClickSink(store, { intervalMs: 200, maxBatch: 100, onError: assert.fail });
  // Recorded on the main thread 100 ms before it reached this sink: due 50 ms from now.
  sink.record(click(1), undefined, 9_900);
  t.mock.timers.tick(49);
  await new Promise<void>((r) => setImmediate(r));
  assert.equal(store.written, 0);
  t.mock.timers.tick(1);
  await new Promise<void>((r) => setImmediate(r));
  assert.equal(store.written, 1);
  // Recorded now: due in 150 ms (200 less 50 for the write).
  sink.record(click(2));
  t.mock.timers.tick(149);
  await new Promise<void>((r) => setImmediate(r));
  assert.equal(store.written, 1);
  t.mock.timers.tick(1);
  await new Promise<void>((r) => setImmediate(r));
  assert.equal(store.written, 2);
  await sink.close();
});
