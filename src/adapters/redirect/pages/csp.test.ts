import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNonce, buildCsp, createNonce } from './csp.ts';
import { NONCE, assertStrictCsp } from '../../shared/html/test-support.ts';

test('the base policy is strict and carries the nonce for styles only', () => {
  const csp = buildCsp(NONCE);
  assertStrictCsp(csp);
  assert.equal(
    csp,
    `default-src 'none'; style-src 'nonce-${NONCE}'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
  );
});

test('vendor hosts go to their directives, script-src keeps the nonce, duplicates are dropped', () => {
  const csp = buildCsp(NONCE, {
    script: ['https://a.test', 'https://a.test'],
    img: ['https://b.test'],
    connect: [],
    frame: ['https://c.test'],
  });
  assertStrictCsp(csp);
  assert.ok(csp.includes(`script-src 'nonce-${NONCE}' https://a.test;`));
  assert.ok(csp.includes('img-src https://b.test;'));
  assert.ok(!csp.includes('connect-src'));
  assert.ok(csp.includes('frame-src https://c.test;'));
});

test('an empty script list still allows the page its own nonce-tagged script', () => {
  assert.ok(buildCsp(NONCE, { script: [] }).includes(`script-src 'nonce-${NONCE}';`));
});

test('a nonce that could break the header or is too short is refused', () => {
  for (const bad of ["abcdefghijklmnop'; script-src *", 'short', 'abcdefghijklmnop q', '']) {
    assert.throws(() => buildCsp(bad), bad);
  }
});

test('createNonce gives fresh, valid nonces', () => {
  const a = createNonce();
  const b = createNonce();
  assert.notEqual(a, b);
  assertNonce(a);
});
