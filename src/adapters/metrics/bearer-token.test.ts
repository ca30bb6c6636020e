import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearerTokenCheck } from './bearer-token.ts';

test('only "Bearer <the token>" passes', () => {
  const allowed = bearerTokenCheck('s3cret-token-for-metrics');
  assert.equal(allowed('Bearer s3cret-token-for-metrics'), true);
  assert.equal(allowed('bearer s3cret-token-for-metrics'), true);
  for (const header of [
    undefined,
    '',
    'Bearer',
    'Bearer ',
    's3cret-token-for-metrics',
    'Basic s3cret-token-for-metrics',
    'Bearer s3cret-token-for-metric',
    'Bearer s3cret-token-for-metricsX',
    'Bearer a b',
  ]) {
    assert.equal(allowed(header), false, String(header));
  }
});
