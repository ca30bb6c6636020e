import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ruleWarnings } from './rule-warnings.ts';
import type { Rule } from './rule.ts';

const url = 'https://a.example/';
const fields = (rules: Rule[]) => ruleWarnings(rules).map((w) => w.field);

test('a rule an earlier one always pre-empts is named', () => {
  assert.deepEqual(
    fields([
      { name: null, when: {}, url },
      { name: null, when: { country: ['US'] }, url },
    ]),
    ['rules.1'],
  );
  assert.deepEqual(
    fields([
      { name: null, when: { country: ['US', 'CA'] }, url },
      { name: null, when: { country: ['US'], os: ['iOS'] }, url },
    ]),
    ['rules.1'],
  );
  assert.deepEqual(
    fields([
      { name: null, when: { country: ['US'] }, url },
      { name: null, when: { country: ['US', 'CA'] }, url },
    ]),
    [],
    'wider: it can still decide',
  );
  assert.deepEqual(
    fields([
      { name: null, when: { country: ['US'], os: ['iOS'] }, url },
      { name: null, when: { country: ['US'] }, url },
    ]),
    [],
  );
});

test('split sums, empty windows and repeats are named', () => {
  assert.deepEqual(
    fields([
      {
        name: null,
        when: { country: ['US', 'DE', 'US'], time: { from: '10:00', to: '10:00', tz: 'UTC' } },
        split: [
          { url, weight: 50 },
          { url, weight: 40 },
        ],
      },
    ]),
    ['rules.0.split', 'rules.0.when.time', 'rules.0.when.country.2'],
  );
  assert.deepEqual(ruleWarnings(null), []);
  assert.deepEqual(
    fields([
      {
        name: null,
        when: {},
        split: [
          { url, weight: 30 },
          { url, weight: 70 },
        ],
      },
    ]),
    [],
  );
});
