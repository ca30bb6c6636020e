import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderDisabled } from './disabled.ts';
import { renderExpired } from './expired.ts';
import { renderNotFound } from './not-found.ts';
import { NONCE, assertNoInjection, assertStrictCsp } from '../../shared/html/test-support.ts';

const pages = [
  ['not found', renderNotFound, 'Link not found'],
  ['expired', renderExpired, 'This link has expired'],
  ['disabled', renderDisabled, 'This link has been disabled'],
] as const;

for (const [name, render, heading] of pages) {
  test(`${name}: a readable, unindexed English page with a strict CSP and no script`, () => {
    const page = render({ nonce: NONCE });
    assert.match(page.html, /^<!doctype html>\n<html lang="en">/);
    assert.ok(page.html.includes('<meta name="robots" content="noindex">'));
    assert.ok(page.html.includes('<meta name="viewport"'));
    assert.ok(page.html.includes(`<title>${heading}</title>`));
    assert.ok(page.html.includes(`<h1>${heading}</h1>`));
    assert.ok(page.html.includes(`<style nonce="${NONCE}">`));
    assert.ok(!page.html.includes('<script'));
    assert.ok(!page.csp.includes('script-src'));
    assertNoInjection(page.html);
    assertStrictCsp(page.csp);
  });
}

test('a page refuses to render with a malformed nonce', () => {
  assert.throws(() => renderNotFound({ nonce: '"><script>alert(1)</script>' }));
});
