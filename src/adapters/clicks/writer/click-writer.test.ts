import { test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import type { Click } from '../../../core/clicks/click.ts';
import { ClickWriter, type ClickWriterOptions } from './click-writer.ts';
import { ClickSpool } from '../spool/click-spool.ts';
import type { ClickWrites } from './click-writes.ts';
import { batchMessage, toBatch } from '../../../../test/support/click-hand-over.ts';
import { aClick } from '../../../../test/support/clicks.ts';

const click = (linkId: number): Click =>
  aClick({ linkId, at: Date.parse('2026-11-23T10:00:00Z'), hour: 10, country: 'US', browser: 'Chrome' });

const message = (n: number, linkId = 1) =>
  batchMessage(toBatch(Array.from({ length: n }, () => ({ click: click(linkId) }))));

/** Writes that count what they are given, and fail while `failing` is set; records stay until their window releases them. */
class CountingWrites implements ClickWrites {
  failing = false;
  /** The next writeRows commits, then rejects, as when a cut loses the answer of its COMMIT. */
  loseAnswer = false;
  rows = 0;
  batches = 0;
  windowClicks = 0;
  released: number[] = [];
  /** The links of each batch committed, in order. */
  written: number[][] = [];
  /** committed() calls. */
  asked = 0;
  /** The spool segments marked written. */
  readonly segments = new Set<string>();
  private readonly records = new Set<number>();
  private nextRecord = 1;

  writeRows(batch: Parameters<ClickWrites['writeRows']>[0]) {
    if (this.failing) return Promise.reject(new Error('database away'));
    const links = Array.from(batch.clicks, (c) => c.linkId);
    this.rows += links.length;
    this.batches++;
    this.written.push([...new Set(links)]);
    const recorded = this.nextRecord++;
    this.records.add(recorded);
    if (batch.segment !== undefined) this.segments.add(batch.segment);
    if (this.loseAnswer) {
      this.loseAnswer = false;
      return Promise.reject(new Error('connection ended (after the COMMIT went through)'));
    }
    return Promise.resolve({ recorded, later: [...batch.counts] });
  }

  segmentWritten(id: string) {
    if (this.failing) return Promise.reject(new Error('database away'));
    return Promise.resolve(this.segments.has(id));
  }

  committed(batch: Parameters<ClickWrites['committed']>[0], since: number) {
    this.asked++;
    if (this.failing) return Promise.reject(new Error('database away'));
    const recorded = [...this.records].find((id) => id > since);
    return Promise.resolve(recorded === undefined ? null : { recorded, later: [...batch.counts] });
  }

  writeWindow(
    window: Parameters<ClickWrites['writeWindow']>[0],
    totals: Parameters<ClickWrites['writeWindow']>[1],
    pending: readonly number[],
  ) {
    if (this.failing) return Promise.reject(new Error('database away'));
    window.drain();
    for (const n of totals.counts.values()) this.windowClicks += n;
    this.released.push(...pending);
    for (const id of pending) this.records.delete(id);
    return Promise.resolve(true);
  }

  close() {
    return Promise.resolve();
  }
}

function writerOver(writes: ClickWrites, over: Partial<ClickWriterOptions> = {}) {
  const told = { errors: [] as string[], resumed: [] as string[], written: 0, dropped: 0 };
  const writer = new ClickWriter(writes, {
    writeIntervalMs: 60_000,
    windowMs: 60_000,
    maxBuffered: 1_000,
    onError: (e) => told.errors.push(String(e)),
    onResumed: (m) => told.resumed.push(m),
    onWritten: (n) => (told.written += n),
    onDropped: (n) => (told.dropped += n),
    ...over,
  });
  return { writer, told };
}

test('what waits is written in one transaction a write, its record released with the window: each click counted once', async () => {
  const writes = new CountingWrites();
  const { writer, told } = writerOver(writes);
  writer.add(message(300, 1));
  writer.add(message(200, 2));
  await writer.write();
  assert.deepEqual(
    { rows: writes.rows, batches: writes.batches, written: told.written },
    { rows: 500, batches: 1, written: 500 },
  );
  writer.add(message(100, 1));
  await writer.settle();
  assert.deepEqual(
    { rows: writes.rows, batches: writes.batches, windowClicks: writes.windowClicks, released: writes.released },
    { rows: 600, batches: 2, windowClicks: 600, released: [1, 2] },
  );
  assert.equal(writes.asked, 0, 'a write that succeeds asks nothing more');
  await writer.close();
});

test('a database away: the clicks are kept and written once when it is back, the failure told once', async () => {
  const writes = new CountingWrites();
  const { writer, told } = writerOver(writes);
  writes.failing = true;
  writer.add(message(100));
  await assert.rejects(writer.write());
  await assert.rejects(writer.settle());
  assert.equal(writer.count, 100);
  writes.failing = false;
  await writer.settle();
  assert.deepEqual(
    { rows: writes.rows, windowClicks: writes.windowClicks, count: writer.count },
    { rows: 100, windowClicks: 100, count: 0 },
  );
  assert.equal(told.errors.filter((e) => /clicks not written/.test(e)).length, 1);
  assert.equal(told.resumed.length, 1);
  await writer.close();
});

test('a write whose COMMIT went through but whose answer was lost counts once; what arrived since is written after it, apart', async () => {
  const writes = new CountingWrites();
  const { writer, told } = writerOver(writes);
  writer.add(message(300, 1));
  writes.loseAnswer = true;
  await assert.rejects(writer.write());
  assert.equal(writer.count, 300, 'kept for the retry');
  writer.add(message(200, 2));
  await writer.settle();
  assert.deepEqual(
    {
      rows: writes.rows,
      batches: writes.written,
      windowClicks: writes.windowClicks,
      released: writes.released,
      asked: writes.asked,
      count: writer.count,
    },
    { rows: 500, batches: [[1], [2]], windowClicks: 500, released: [1, 2], asked: 1, count: 0 },
  );
  assert.equal(told.written, 500);
  assert.equal(told.errors.filter((e) => /clicks not written/.test(e)).length, 1);
  assert.equal(told.resumed.length, 1);
  await writer.close();
});

test('a write that did not commit is written again alone, before what arrived since; asked again after each failure', async () => {
  const writes = new CountingWrites();
  const { writer } = writerOver(writes);
  writes.failing = true;
  writer.add(message(100, 1));
  await assert.rejects(writer.write());
  writer.add(message(50, 2));
  await assert.rejects(writer.write());
  writes.failing = false;
  await writer.settle();
  assert.deepEqual(
    { rows: writes.rows, batches: writes.written, windowClicks: writes.windowClicks, asked: writes.asked },
    { rows: 150, batches: [[1], [2]], windowClicks: 150, asked: 2 },
  );
  await writer.close();
});

test('a window that fails keeps its sums and its records for the next: nothing released twice, nothing lost', async () => {
  const writes = new CountingWrites();
  const { writer } = writerOver(writes, { promptWindowRows: 0 });
  writer.add(message(50));
  await writer.write();
  writes.failing = true;
  await assert.rejects(writer.settle());
  writes.failing = false;
  await writer.settle();
  assert.deepEqual(
    { windowClicks: writes.windowClicks, released: writes.released },
    { windowClicks: 50, released: [1] },
  );
  await writer.close();
});

test('past CLICK_BUFFER_MAX a hand-over is dropped whole, counted and told once', async () => {
  const writes = new CountingWrites();
  const { writer, told } = writerOver(writes, { maxBuffered: 250 });
  writes.failing = true;
  writer.add(message(200));
  writer.add(message(100));
  writer.add(message(50));
  assert.deepEqual({ count: writer.count, dropped: told.dropped }, { count: 250, dropped: 100 });
  assert.equal(told.errors.filter((e) => /click buffer full/.test(e)).length, 1);
  writes.failing = false;
  await writer.close();
  assert.equal(writes.rows, 250);
});

/** Writes that keep the visitor marks each window sent; with `rolledUp`, the next window is dropped for a recovery's roll-up (no mark written). */
class MarkingWrites extends CountingWrites {
  sent: string[][] = [];
  rolledUp = false;
  override async writeWindow(...args: Parameters<ClickWrites['writeWindow']>) {
    if (!this.failing) this.sent.push([...args[0].orderedMarks()].map((m) => `${m.linkId} ${m.visitor}`));
    const written = await super.writeWindow(...args);
    const dropped = this.rolledUp;
    this.rolledUp = false;
    return written && !dropped;
  }
}

test('a visitor mark is sent with the first window written that holds it, not again; a failed window keeps it to send', async () => {
  const writes = new MarkingWrites();
  const { writer } = writerOver(writes, { promptWindowRows: 0 });
  const visit = (visitor: string, linkId = 1) =>
    batchMessage(toBatch([{ click: aClick({ linkId, visitor, at: Date.parse('2026-11-23T10:00:00Z') }) }]));
  writer.add(visit('a'));
  writes.failing = true;
  await assert.rejects(writer.settle());
  writes.failing = false;
  await writer.settle();
  writer.add(visit('a'));
  writer.add(visit('b'));
  writer.add(visit('a', 2));
  await writer.settle();
  assert.deepEqual(writes.sent, [['1 a'], ['1 b', '2 a']]);
  await writer.close();
});

test('a window dropped for a recovery from the rows wrote no mark: its visitors are sent with the next', async () => {
  const writes = new MarkingWrites();
  const { writer } = writerOver(writes, { promptWindowRows: 0 });
  const visit = (visitor: string) =>
    batchMessage(toBatch([{ click: aClick({ visitor, at: Date.parse('2026-11-23T10:00:00Z') }) }]));
  writer.add(visit('a'));
  writes.rolledUp = true;
  await writer.settle();
  writer.add(visit('a'));
  await writer.settle();
  assert.deepEqual(writes.sent, [['1 a'], ['1 a']]);
  await writer.close();
});

test('past CLICK_BUFFER_MAX clicks go to the spool, and are written once when the database is back, oldest segment first', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'linkpix-writer-spool-'));
  try {
    const writes = new CountingWrites();
    let spooled = 0;
    const spool = new ClickSpool(join(dir, 'spool'));
    const { writer, told } = writerOver(writes, { spool, onSpooled: (n) => (spooled += n) });
    writes.failing = true;
    writer.add(message(800, 1));
    writer.add(message(300, 2));
    writer.add(message(300, 3));
    assert.deepEqual(
      { spooled, dropped: told.dropped, waiting: writer.count },
      { spooled: 600, dropped: 0, waiting: 800 },
    );
    await assert.rejects(writer.settle());
    writes.failing = false;
    await writer.settle();
    assert.deepEqual({ rows: writes.rows, windowClicks: writes.windowClicks }, { rows: 1400, windowClicks: 1400 });
    assert.equal(spool.size, 0);
    assert.equal(writes.segments.size, 1);
    await writer.close();

    // A crash between a segment's commit and its removal: the next writer finds its mark and removes it unwritten.
    const left = new ClickSpool(join(dir, 'spool'));
    left.append({ clicks: [click(4)], counts: [[4, 1]], rotations: [], since: 0 });
    const id = left.oldest()!;
    writes.segments.add(id);
    const again = writerOver(writes, { spool: new ClickSpool(join(dir, 'spool')) });
    await again.writer.settle();
    assert.equal(writes.rows, 1400, 'a segment marked written is not written again');
    await again.writer.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a segment whose COMMIT went through but whose answer was lost is found by its mark: written once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'linkpix-writer-spool-'));
  try {
    const spool = new ClickSpool(join(dir, 'spool'));
    spool.append({ clicks: [click(1), click(1)], counts: [[1, 2]], rotations: [], since: 0 });
    const writes = new CountingWrites();
    writes.loseAnswer = true;
    const { writer } = writerOver(writes, { spool });
    await assert.rejects(writer.settle());
    await writer.settle();
    assert.equal(writes.rows, 2);
    assert.equal(spool.size, 0);
    await writer.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('past the spool bound too, a hand-over is dropped and counted as without a spool', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'linkpix-writer-spool-'));
  try {
    const writes = new CountingWrites();
    writes.failing = true;
    const { writer, told } = writerOver(writes, { spool: new ClickSpool(join(dir, 'spool'), 10) });
    writer.add(message(1000, 1));
    writer.add(message(5, 1));
    assert.equal(told.dropped, 5);
    writes.failing = false;
    await writer.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
