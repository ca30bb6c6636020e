// The rules builder's rows and the API's rules: every condition kind (and `not`, a split, app
// links) goes to rows and back unchanged; a posted form reads as rows; row buttons move rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Rule } from '../../../../core/rules/rule.ts';
import { applyRowAction, emptyRule, rowsOfForm, rowsToRules, rulesToRows } from './link-rules-rows.ts';

const EVERY_KIND: Rule[] = [
  {
    name: 'Every kind',
    when: {
      country: ['US', 'DE'],
      os: ['iOS', 'Android'],
      browser: ['Chrome'],
      device: ['mobile'],
      language: ['de', 'fr'],
      referrer: ['news.example', 'none'],
      query: { utm_source: 'newsletter', ref: '*' },
      time: { days: ['mon', 'fri'], from: '09:00', to: '17:00', tz: 'Europe/Berlin' },
      date: { from: '2026-12-01T00:00:00.000Z', to: '2027-01-01T00:00:00.000Z' },
      visits: { from: 10, below: 100 },
      ip: ['10.0.0.0/8', '2001:db8::/32'],
      returning: true,
      not: { country: ['FR'], returning: false },
    },
    url: 'https://a.example/',
    ios_url: 'https://apps.example/ios',
    android_url: 'https://apps.example/android',
  },
  {
    name: null,
    when: { time: { tz: 'UTC' }, date: { from: '2026-12-01T00:00:00.000Z' }, visits: { below: 5 } },
    split: [
      { url: 'https://x.example/', weight: 70 },
      { url: 'https://y.example/', weight: 30 },
    ],
  },
];

test('every condition kind, not, a split and app links go to rows and back unchanged', () => {
  const rows = rulesToRows(EVERY_KIND);
  assert.equal(rows[0]!.conditions.length, 14);
  assert.deepEqual(
    rows[0]!.conditions.filter((c) => c.not).map((c) => c.kind),
    ['country', 'returning'],
  );
  assert.equal(rows[1]!.mode, 'split');
  assert.deepEqual(rowsToRules(rows), EVERY_KIND);
  assert.deepEqual(rulesToRows(null), []);
});

test('a posted form reads as rows; typed faults are kept for the core to name', () => {
  const form = {
    rule: [
      {
        name: ' Promo ',
        mode: 'split',
        url: '',
        split: [
          { url: 'https://x.example/', weight: '60' },
          { url: 'https://y.example/', weight: 'lots' },
        ],
        c: [
          { kind: 'os', picked: 'iOS' },
          { kind: 'country', text: 'us de,fr', not: '1' },
          { kind: 'visits', from: '3', to: 'x' },
          { kind: 'nonsense', text: 'DE' },
        ],
      },
    ],
  };
  const rows = rowsOfForm(form, { rules: 50, values: 20 });
  assert.deepEqual(rowsToRules(rows), [
    {
      name: 'Promo',
      when: { os: ['iOS'], visits: { from: 3, below: 'x' }, country: ['DE'], not: { country: ['us', 'de', 'fr'] } },
      split: [
        { url: 'https://x.example/', weight: 60 },
        { url: 'https://y.example/', weight: 'lots' },
      ],
    },
  ]);
  assert.equal(rows[0]!.conditions[3]!.kind, 'country', 'an unknown kind reads as the first');
});

test('row buttons add, move and take out rows, conditions and variants', () => {
  const two = [
    { ...emptyRule(), name: 'a' },
    { ...emptyRule(), name: 'b' },
  ];
  assert.deepEqual(
    applyRowAction(two, 'down:0')!.map((r) => r.name),
    ['b', 'a'],
  );
  assert.deepEqual(
    applyRowAction(two, 'up:1')!.map((r) => r.name),
    ['b', 'a'],
  );
  assert.deepEqual(
    applyRowAction(two, 'up:0')!.map((r) => r.name),
    ['a', 'b'],
    'the first stays first',
  );
  assert.equal(applyRowAction(two, 'add-rule')!.length, 3);
  assert.deepEqual(
    applyRowAction(two, 'remove-rule:0')!.map((r) => r.name),
    ['b'],
  );
  const withCondition = applyRowAction(two, 'add-condition:1')!;
  assert.equal(withCondition[1]!.conditions.length, 1);
  assert.equal(two[1]!.conditions.length, 0, 'the rows given are not changed');
  assert.equal(applyRowAction(withCondition, 'remove-condition:1:0')![1]!.conditions.length, 0);
  assert.equal(applyRowAction(two, 'add-variant:0')![0]!.split.length, 3);
  assert.equal(applyRowAction(two, 'remove-variant:0:1')![0]!.split.length, 1);
  assert.equal(applyRowAction(two, 'save'), null);
});
