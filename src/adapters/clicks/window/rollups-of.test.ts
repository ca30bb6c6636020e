import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Click } from '../../../core/clicks/click.ts';
import { rollupsOf, visitorMarksOf } from '../../../../test/support/rollups-of.ts';
import { uniqueIncrements } from '../../../core/stats/rollups.ts';

const click = (over: Partial<Click> = {}): Click => ({
  linkId: 1,
  accountId: 1,
  at: 0,
  day: '2026-03-10',
  hour: 9,
  visitor: 'v1',
  country: 'US',
  city: null,
  browser: 'Chrome',
  platform: 'Windows',
  device: 'desktop',
  language: 'en',
  referrerHost: 't.co',
  isBot: false,
  ...over,
});

const table = (rows: ReturnType<typeof rollupsOf>) =>
  rows.map((r) => `${r.linkId} ${r.dimension} ${r.day} ${r.value} ${r.count}`);

test('one increment per rollup row, every dimension, unknowns as empty values, in key order', () => {
  const rows = rollupsOf([click(), click({ hour: 10, country: null, referrerHost: null }), click({ linkId: 2 })]);
  assert.deepEqual(table(rows), [
    '1 browser 2026-03-10 Chrome 2',
    '1 city 2026-03-10  2',
    '1 country 2026-03-10  1',
    '1 country 2026-03-10 US 1',
    '1 device 2026-03-10 desktop 2',
    '1 hour 2026-03-10 09 1',
    '1 hour 2026-03-10 10 1',
    '1 language 2026-03-10 en 2',
    '1 platform 2026-03-10 Windows 2',
    '1 referrer 2026-03-10  1',
    '1 referrer 2026-03-10 t.co 1',
    '1 total 2026-03-10  2',
    '2 browser 2026-03-10 Chrome 1',
    '2 city 2026-03-10  1',
    '2 country 2026-03-10 US 1',
    '2 device 2026-03-10 desktop 1',
    '2 hour 2026-03-10 09 1',
    '2 language 2026-03-10 en 1',
    '2 platform 2026-03-10 Windows 1',
    '2 referrer 2026-03-10 t.co 1',
    '2 total 2026-03-10  1',
  ]);
});

test('bots add to the bot row only', () => {
  assert.deepEqual(
    table(rollupsOf([click({ isBot: true, visitor: null }), click({ isBot: true, visitor: null, day: '2026-03-11' })])),
    ['1 bot 2026-03-10  1', '1 bot 2026-03-11  1'],
  );
});

test('over-long values are cut to 255 characters', () => {
  const host = `${'a'.repeat(300)}.example`;
  const referrer = rollupsOf([click({ referrerHost: host })]).find((r) => r.dimension === 'referrer')!;
  assert.equal(referrer.value, host.slice(0, 255));
});

test('visitor marks: distinct per link, day and hash; bots have none', () => {
  const marks = visitorMarksOf([
    click(),
    click(),
    click({ day: '2026-03-11' }),
    click({ linkId: 2 }),
    click({ visitor: 'v2' }),
    click({ isBot: true, visitor: null }),
  ]);
  assert.deepEqual(marks.map((m) => `${m.linkId} ${m.day} ${m.visitor}`).sort(), [
    '1 2026-03-10 v1',
    '1 2026-03-10 v2',
    '1 2026-03-11 v1',
    '2 2026-03-10 v1',
  ]);
  assert.deepEqual(
    table(
      uniqueIncrements([
        { linkId: 1, day: '2026-03-10' },
        { linkId: 1, day: '2026-03-10' },
        { linkId: 2, day: '2026-03-10' },
      ]),
    ),
    ['1 unique 2026-03-10  2', '2 unique 2026-03-10  1'],
  );
});
