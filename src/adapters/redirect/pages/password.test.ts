import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderPassword } from './password.ts';
import { NONCE, assertNoInjection, assertStrictCsp } from '../../shared/html/test-support.ts';

test('the form posts the password field to the same URL', () => {
  const page = renderPassword({ nonce: NONCE });
  assert.ok(page.html.includes('<form method="post" action="">'));
  assert.match(
    page.html,
    /<input type="password" id="password" name="password" autocomplete="current-password" required autofocus>/,
  );
  assert.ok(page.html.includes('<label for="password">Password</label>'));
  assert.ok(page.html.includes('<button type="submit">Continue</button>'));
  assert.ok(!page.html.includes('role="alert"'));
  assertNoInjection(page.html);
  assertStrictCsp(page.csp);
});

test('a wrong answer is announced and tied to the field', () => {
  const page = renderPassword({ nonce: NONCE, state: { kind: 'wrong' } });
  assert.ok(
    page.html.includes('<p class="error" id="password-error" role="alert">Wrong password. Please try again.</p>'),
  );
  assert.ok(page.html.includes('aria-invalid="true" aria-describedby="password-error"'));
});

test('too many attempts says how long to wait', () => {
  const wait = (n: number) =>
    renderPassword({ nonce: NONCE, state: { kind: 'rate-limited', retryAfterSeconds: n } }).html;
  assert.ok(wait(42).includes('Too many attempts, try again in 42 seconds.'));
  assert.ok(wait(0.2).includes('try again in 1 second.'));
  assert.ok(wait(Number.NaN).includes('try again in 1 second.'));
  assert.ok(wait(2.1).includes('try again in 3 seconds.'));
});
