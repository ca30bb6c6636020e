import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rulesWithWinner } from './winner.ts';
import { ValidationError } from '../shared/errors.ts';
import type { Rule } from '../rules/rule.ts';

const rules: Rule[] = [
  { name: 'US', when: { country: ['US'] }, url: 'https://us.example/' },
  {
    name: 'Test',
    when: { device: ['mobile'] },
    split: [
      { url: 'https://a.example/', weight: 70 },
      { url: 'https://b.example/', weight: 30 },
    ],
    ios_url: 'https://app.example/',
  },
];

test('the split becomes a plain rule to the winner, keeping its name, conditions and app links', () => {
  assert.deepEqual(rulesWithWinner(rules, 1, 1), [
    rules[0],
    { name: 'Test', when: { device: ['mobile'] }, url: 'https://b.example/', ios_url: 'https://app.example/' },
  ]);
});

test('a rule that is no split, or a variant it lacks, is refused naming the field', () => {
  assert.throws(
    () => rulesWithWinner(rules, 0, 0),
    (e) => e instanceof ValidationError && 'rule' in e.fields,
  );
  assert.throws(
    () => rulesWithWinner(rules, 7, 0),
    (e) => e instanceof ValidationError && 'rule' in e.fields,
  );
  assert.throws(
    () => rulesWithWinner(rules, 1, 2),
    (e) => e instanceof ValidationError && 'variant' in e.fields,
  );
});
