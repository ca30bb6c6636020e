import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conversionResults } from './results.ts';
import type { Rule } from '../rules/rule.ts';

const link = {
  url: 'https://default.example/',
  rules: [
    { name: 'US', when: { country: ['US'] }, url: 'https://us.example/' },
    {
      name: 'Test',
      when: {},
      split: [
        { url: 'https://a.example/', weight: 50 },
        { url: 'https://b.example/', weight: 50 },
      ],
    },
  ] satisfies Rule[],
};

test('one row per rule and variant, the first variant the base of the others', () => {
  const rows = conversionResults(
    link,
    [
      { rule: 1, variant: 0, clicks: 1000 },
      { rule: 1, variant: 1, clicks: 1000 },
      { rule: 0, variant: null, clicks: 10 },
    ],
    [
      { rule: 1, variant: 0, name: 'sale', currency: 'EUR', count: 50, value: 500 },
      { rule: 1, variant: 1, name: 'sale', currency: 'EUR', count: 70, value: 800 },
      { rule: 1, variant: 1, name: 'sale', currency: 'USD', count: 9, value: 10 },
      { rule: 1, variant: 1, name: 'sale', currency: null, count: 1, value: 2.5 },
      { rule: 1, variant: 1, name: 'lead', currency: null, count: 3, value: 0 },
    ],
    [
      { rule: 1, variant: 0, converted: 50 },
      { rule: 1, variant: 1, converted: 80 },
    ],
  );
  assert.deepEqual(
    rows.map((r) => [r.rule, r.variant, r.url, r.clicks]),
    [
      [0, null, 'https://us.example/', 10],
      [1, 0, 'https://a.example/', 1000],
      [1, 1, 'https://b.example/', 1000],
      [null, null, 'https://default.example/', 0],
    ],
  );
  const [plain, first, second] = rows;
  assert.equal(plain!.p_value, null);
  assert.equal(first!.p_value, null);
  assert.equal(first!.rate, 0.05);
  assert.deepEqual(second!.conversions, {
    sale: { count: 80, value: 812.5, values: { EUR: 800, USD: 10 } },
    lead: { count: 3, value: 0, values: {} },
  });
  assert.ok(Math.abs(second!.p_value! - 0.006506597) < 1e-6);
});

test('a rule the link no longer has keeps its clicks, without a url', () => {
  const rows = conversionResults(
    { url: 'https://x.example/', rules: null },
    [{ rule: 4, variant: 1, clicks: 7 }],
    [],
    [],
  );
  assert.deepEqual(rows[0], { rule: 4, variant: 1, url: null, clicks: 7, conversions: {}, rate: 0, p_value: null });
});
