import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Click } from '../../../core/clicks/click.ts';
import { WaitingClicks } from './worker-messages.ts';
import { batchMessage, toBatch } from '../../../../test/support/click-hand-over.ts';

const click = (linkId: number, at: number): Click => ({
  linkId,
  accountId: 1,
  at,
  day: '2026-11-23',
  hour: 10,
  visitor: 'v',
  country: 'US',
  city: null,
  browser: 'Chrome',
  platform: 'Windows',
  device: 'desktop',
  language: 'en',
  referrerHost: null,
  isBot: false,
});

test('messages handed over become one batch: clicks in order, counts added up, the latest rotation kept', () => {
  const waiting = new WaitingClicks();
  waiting.add(
    batchMessage(
      toBatch([
        { click: click(1, 1), rotation: 0 },
        { click: click(2, 2), rotation: 5 },
      ]),
    ),
  );
  waiting.add(batchMessage(toBatch([])));
  waiting.add(batchMessage(toBatch([{ click: click(1, 3), rotation: 3 }, { click: { ...click(3, 4), isBot: true } }])));
  assert.equal(waiting.count, 4);
  const batch = waiting.take();
  assert.deepEqual(
    Array.from(batch.clicks, (c) => [c.linkId, c.at, c.isBot]),
    [
      [1, 1, false],
      [2, 2, false],
      [1, 3, false],
      [3, 4, true],
    ],
  );
  assert.deepEqual([...batch.linkIds].sort(), [1, 2, 3], "bots' links too");
  assert.deepEqual(
    [...batch.counts].sort(),
    [
      [1, 2],
      [2, 1],
    ],
    'bots are not counted',
  );
  assert.deepEqual([...batch.rotations].sort(), [
    [1, 3],
    [2, 5],
  ]);
  assert.equal(waiting.count, 0);
  assert.deepEqual(Array.from(waiting.take().clicks), []);
});
