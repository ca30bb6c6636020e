import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Click } from '../../../core/clicks/click.ts';
import { ClickColumnsBuilder, ClickColumnsView, transferablesOf, type ClickColumns } from './click-columns.ts';
import { encodeClicks } from '../../../../test/support/click-hand-over.ts';

/** The view's clicks as objects of their own (the view hands out one reused object). */
const decodeClicks = (...parts: ClickColumns[]): Click[] => Array.from(new ClickColumnsView(parts), (c) => ({ ...c }));

const human: Click = {
  linkId: 2 ** 31 + 7,
  accountId: 42,
  at: Date.parse('2026-11-23T10:30:00.123Z'),
  day: '2026-11-23',
  hour: 11,
  visitor: 'aB3-_x9',
  country: 'US',
  city: 'São Paulo',
  browser: 'Chrome',
  platform: 'Windows',
  device: 'desktop',
  language: 'pt-br',
  referrerHost: 'bücher.example',
  isBot: false,
  rule: 3,
  variant: 1,
  qr: false,
};
const bot: Click = {
  ...human,
  linkId: 3,
  visitor: null,
  country: null,
  city: null,
  browser: null,
  platform: null,
  device: null,
  language: null,
  referrerHost: null,
  isBot: true,
};

test('clicks come back as they went, nulls, bots and non-ASCII text included', () => {
  const clicks = [human, bot, { ...human, hour: 0, visitor: 'other' }];
  const columns = encodeClicks(clicks);
  assert.equal(columns.count, 3);
  assert.deepEqual(decodeClicks(columns), clicks);
});

test('each distinct string crosses once; visitors cross as bytes, not strings', () => {
  const columns = encodeClicks(
    Array.from({ length: 100 }, (_, i) => ({ ...human, visitor: i % 2 === 0 ? 'even' : `odd${i}` })),
  );
  assert.deepEqual([...columns.strings].sort(), [
    '2026-11-23',
    'Chrome',
    'São Paulo',
    'US',
    'Windows',
    'bücher.example',
    'desktop',
    'pt-br',
  ]);
  assert.deepEqual(
    decodeClicks(columns)
      .map((c) => c.visitor)
      .slice(0, 4),
    ['even', 'odd1', 'even', 'odd3'],
  );
});

test('a visitor that is not a short ASCII string goes in the table, and comes back the same', () => {
  const odd = ['', 'x'.repeat(23), 'y'.repeat(24), 'é', '€uro', 'aB3-_x9aB3-_x9aB3-_x9zz'];
  const clicks = odd.map((visitor) => ({ ...human, visitor }));
  const columns = encodeClicks(clicks);
  assert.deepEqual(decodeClicks(columns), clicks);
  assert.deepEqual([...columns.strings].filter((t) => odd.includes(t)).sort(), ['y'.repeat(24), 'é', '€uro'].sort());
});

test('no clicks: empty columns; the buffers listed are the ones postMessage should move', () => {
  const columns = encodeClicks([]);
  assert.deepEqual(decodeClicks(columns), []);
  assert.deepEqual(transferablesOf(columns), [columns.numbers.buffer, columns.codes.buffer, columns.visitors.buffer]);
});

test('the view reads several messages in order, empty ones too, and hands out one reused object', () => {
  const first = encodeClicks([human, bot]);
  const second = encodeClicks([{ ...human, linkId: 9 }]);
  assert.deepEqual(decodeClicks(first, encodeClicks([]), second), [human, bot, { ...human, linkId: 9 }]);
  const view = new ClickColumnsView([first, second]);
  assert.equal(view.count, 3);
  const seen = new Set<Click>();
  for (const c of view) seen.add(c);
  assert.equal(seen.size, 1);
  assert.deepEqual([...new ClickColumnsView([])], []);
});

test('the builder grows past its first size, and starts afresh after each build', () => {
  const builder = new ClickColumnsBuilder(2);
  const clicks = Array.from({ length: 5 }, (_, i) => ({ ...human, linkId: i + 1, visitor: `v${i}` }));
  for (const c of clicks) builder.add(c);
  assert.equal(builder.count, 5);
  const first = builder.build();
  assert.equal(builder.count, 0);
  builder.add(bot);
  assert.deepEqual(decodeClicks(first), clicks);
  assert.deepEqual(decodeClicks(builder.build()), [bot]);
});
