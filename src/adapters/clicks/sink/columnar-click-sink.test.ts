import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Click } from '../../../core/clicks/click.ts';
import { ClickColumnsView, type ClickColumns } from './click-columns.ts';
import { ColumnarClickSink, type ColumnsWriter } from './columnar-click-sink.ts';

const click = (linkId: number, over: Partial<Click> = {}): Click => ({
  linkId,
  accountId: 1,
  at: linkId * 1000,
  day: '2026-11-23',
  hour: 10,
  visitor: `v${linkId}`,
  country: 'US',
  city: null,
  browser: 'Chrome',
  platform: 'Windows',
  device: 'desktop',
  language: 'en',
  referrerHost: null,
  isBot: false,
  rule: null,
  variant: null,
  qr: false,
  ...over,
});

function fakeWriter() {
  const handed: Array<{ clicks: Click[]; counts: Array<[number, number]>; rotations: Array<[number, number]> }> = [];
  let settled = 0;
  const writer: ColumnsWriter = {
    writeColumns(columns: ClickColumns, counts, rotations) {
      handed.push({
        clicks: Array.from(new ClickColumnsView([columns]), (c) => ({ ...c })),
        counts: [...counts].sort(),
        rotations: [...rotations].sort(),
      });
    },
    settle: async () => void settled++,
  };
  return { writer, handed, settled: () => settled };
}

test('clicks are handed over in columns at maxBatch: in order, humans counted per link, the latest rotation kept', () => {
  const { writer, handed } = fakeWriter();
  const sink = new ColumnarClickSink(writer, { intervalMs: 60_000, maxBatch: 3 });
  sink.record(click(1), 0);
  sink.record(click(2, { isBot: true, visitor: null }));
  assert.equal(sink.pending, 2);
  assert.equal(handed.length, 0);
  sink.record(click(1), 2);
  assert.equal(sink.pending, 0);
  sink.record(click(4));
  assert.equal(handed.length, 1);
  assert.deepEqual(handed[0]!.clicks, [click(1), click(2, { isBot: true, visitor: null }), click(1)]);
  assert.deepEqual(handed[0]!.counts, [[1, 2]]);
  assert.deepEqual(handed[0]!.rotations, [[1, 2]]);
});

test('a few clicks go over within the interval; flush hands over what is left and waits for the thread', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { writer, handed, settled } = fakeWriter();
  const sink = new ColumnarClickSink(writer, { intervalMs: 20, maxBatch: 100 });
  sink.record(click(1));
  t.mock.timers.tick(19);
  assert.equal(handed.length, 0, 'not before the interval');
  t.mock.timers.tick(1);
  assert.equal(handed.length, 1);
  sink.record(click(2));
  await sink.flush();
  assert.deepEqual(
    handed.map((h) => h.clicks.map((c) => c.linkId)),
    [[1], [2]],
  );
  assert.equal(settled(), 1);
  await sink.close();
  assert.equal(handed.length, 2, 'nothing left: no empty hand-off');
  assert.equal(settled(), 2);
});
