import { test } from 'node:test';
import assert from 'node:assert/strict';
import { periodChange } from './period-change.ts';

test('periodChange: a ratio of the period before, null when it had nothing', () => {
  assert.equal(periodChange(125, 100), 0.25);
  assert.equal(periodChange(50, 100), -0.5);
  assert.equal(periodChange(0, 4), -1);
  assert.equal(periodChange(7, 7), 0);
  assert.equal(periodChange(10, 0), null);
  assert.equal(periodChange(0, 0), null);
});
