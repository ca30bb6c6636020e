// One numbering on every page: the API's index + 1; paths put the page's way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogueFor } from '../i18n/catalogue.ts';
import { pageMessage, pageNumber, pathLabel, ruleLabel, variantLabel } from './rule-numbering.ts';

const t = catalogueFor('en').rules;

test('rules and variants count from 1; no rule reads the link’s URL', () => {
  assert.equal(pageNumber(0), 1);
  assert.equal(ruleLabel(t, 0), 'Rule 1');
  assert.equal(ruleLabel(t, 2, 'Newsletter'), 'Rule 3: Newsletter');
  assert.equal(ruleLabel(t, null), 'No rule (the link’s URL)');
  assert.equal(variantLabel(t, 1), 'Variant 2');
});

test('error paths read "Rule 1 › country › value 1"; other fields are left as they are', () => {
  assert.equal(pathLabel(t, 'rules.0.when.country.0'), 'Rule 1 › country › value 1');
  assert.equal(pathLabel(t, 'rules.2.when.not.ip.1'), 'Rule 3 › not › ip › value 2');
  assert.equal(pathLabel(t, 'rules.0.split.1.weight'), 'Rule 1 › split › variant 2 › weight');
  assert.equal(pathLabel(t, 'rules.4.ios_url'), 'Rule 5 › ios_url');
  assert.equal(pathLabel(t, 'rules'), 'Rules');
  assert.equal(pathLabel(t, 'country'), 'country');
  assert.equal(
    pageMessage(t, 'The rules.0.when.country.0 format is invalid.'),
    'The Rule 1 › country › value 1 format is invalid.',
  );
  assert.equal(
    pageMessage(t, 'This rule never decides: rules.0 matches whenever it does.'),
    'This rule never decides: Rule 1 matches whenever it does.',
  );
});
