import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Click } from '../../../core/clicks/click.ts';
import { encodeClicks } from '../../../../test/support/click-hand-over.ts';
import { aClick } from '../../../../test/support/clicks.ts';
import { int4Array, int8Array, textArray } from '../../storage/stores/pg-binary-arrays.ts';
import { linkOrder, pgClickArrays } from './pg-click-arrays.ts';

const NOV = Date.UTC(2026, 10, 30, 23, 59);
const DEC = Date.UTC(2026, 11, 1, 0, 1);

/** What the insert's arrays were built from Click objects before (one int4Array, int8Array or textArray a column), the rows in link order. */
function expected(unordered: readonly Click[]): Buffer[] {
  const clicks = [...unordered].sort((a, b) => a.linkId - b.linkId);
  const ints = (f: (c: Click) => number | null) => int4Array(clicks.map(f));
  const texts = (f: (c: Click) => string | null) => textArray(clicks.map(f));
  return [
    ints((c) => c.linkId),
    ints((c) => c.accountId),
    int8Array(clicks.map((c) => c.at)),
    texts((c) => c.country),
    texts((c) => c.city),
    texts((c) => c.browser),
    texts((c) => c.platform),
    texts((c) => c.device),
    texts((c) => c.language),
    texts((c) => c.referrerHost),
    ints((c) => (c.isBot ? 1 : 0)),
    ints((c) => c.rule ?? null),
    ints((c) => c.variant ?? null),
    ints((c) => (c.qr === true ? 1 : 0)),
  ];
}

test('the columns of several messages: the clicks of the kept links, in link order, as the insert reads them', () => {
  const first = [
    aClick({
      linkId: 1,
      at: NOV,
      country: 'US',
      city: 'São Paulo',
      browser: 'Chrome',
      referrerHost: 'a"b\\c.example',
      rule: 0,
      variant: 2,
    }),
    aClick({ linkId: 2, at: NOV + 1, country: 'US', isBot: true }),
    aClick({ linkId: 3, at: NOV + 2, language: 'NULL', platform: '' }),
  ];
  const second = [
    aClick({ linkId: 1, accountId: 2 ** 31 - 1, at: DEC, country: 'DE', device: 'mobile', rule: 19 }),
    aClick({ linkId: 2, at: DEC + 5 }),
  ];
  const rows = pgClickArrays([encodeClicks(first), encodeClicks(second)], (id) => id !== 2);
  const kept = [...first, ...second].filter((c) => c.linkId !== 2);
  assert.equal(rows.count, kept.length);
  assert.deepEqual(rows.columns, expected(kept));
  // November and December are written to; January is made ahead of the turn of the month.
  assert.deepEqual(rows.months, [
    { year: 2026, month: 10 },
    { year: 2026, month: 11 },
    { year: 2027, month: 0 },
  ]);
});

test('nothing kept: no rows and no partitions to make', () => {
  const rows = pgClickArrays([encodeClicks([aClick()])], () => false);
  assert.deepEqual(rows, { count: 0, columns: [], months: [] });
});

test('rows by link, each link’s in their own order: the same with one sorted number a row and with a comparator', () => {
  const links = [7, 3, 2 ** 31 - 1, 3, 1, 7, 7, 2 ** 31 - 1, 1, 3];
  const linkOf = Float64Array.from(links);
  const expectedOrder = [4, 8, 1, 3, 9, 0, 5, 6, 2, 7];
  assert.deepEqual([...linkOrder(linkOf, links.length)], expectedOrder);
  // A write of more rows than one number can hold with their index (span 4 here): the comparator.
  assert.deepEqual([...linkOrder(linkOf, links.length, 4)], expectedOrder);
});
