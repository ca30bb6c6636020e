import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Click } from '../../core/clicks/click.ts';
import { decodeClicks, encodeClicks, transferablesOf } from './click-columns.ts';

const human: Click = {
  linkId: 2 ** 31 + 7, accountId: 42, at: Date.parse('2026-11-23T10:30:00.123Z'), day: '2026-11-23', hour: 11, visitor: 'aB3-_x9',
  country: 'US', city: 'São Paulo', browser: 'Chrome', platform: 'Windows', device: 'desktop', language: 'pt-br', referrerHost: 'bücher.example', isBot: false,
};
const bot: Click = { ...human, linkId: 3, visitor: null, country: null, city: null, browser: null, platform: null, device: null, language: null, referrerHost: null, isBot: true };

test('clicks come back as they went, nulls, bots and non-ASCII text included', () => {
  const clicks = [human, bot, { ...human, hour: 0, visitor: 'other' }];
  const columns = encodeClicks(clicks);
  assert.equal(columns.count, 3);
  assert.deepEqual(decodeClicks(columns), clicks);
});

test('each distinct string crosses once', () => {
  const columns = encodeClicks(Array.from({ length: 100 }, (_, i) => ({ ...human, visitor: i % 2 === 0 ? 'even' : 'odd' })));
  assert.deepEqual([...columns.strings].sort(), ['2026-11-23', 'Chrome', 'São Paulo', 'US', 'Windows', 'bücher.example', 'desktop', 'even', 'odd', 'pt-br']);
});

test('no clicks: empty columns; the buffers listed are the ones postMessage should move', () => {
  const columns = encodeClicks([]);
  assert.deepEqual(decodeClicks(columns), []);
  assert.deepEqual(transferablesOf(columns), [columns.numbers.buffer, columns.codes.buffer]);
});
