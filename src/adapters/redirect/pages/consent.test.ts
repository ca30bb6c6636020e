import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderConsent } from './consent.ts';
import { NONCE, assertNoInjection, assertStrictCsp } from '../../shared/html/test-support.ts';

test('offers Accept and Decline, both posting `consent` to the same URL', () => {
  const page = renderConsent({ nonce: NONCE });
  assert.ok(page.html.includes('<form method="post" action="">'));
  assert.ok(page.html.includes('<button type="submit" name="consent" value="yes">Accept</button>'));
  assert.ok(page.html.includes('<button type="submit" name="consent" value="no" class="secondary">Decline</button>'));
  assert.ok(page.html.includes('remembered for 30 days'));
  assert.ok(!page.html.includes('<script'));
  assertNoInjection(page.html);
  assertStrictCsp(page.csp);
});

test('names each vendor once, and the remembered period as configured', () => {
  const page = renderConsent({ nonce: NONCE, vendors: ['facebook', 'google-analytics', 'facebook'], rememberDays: 1 });
  assert.ok(page.html.includes(': Meta (Facebook), Google Analytics.'));
  assert.ok(page.html.includes('remembered for 1 day.'));
});
