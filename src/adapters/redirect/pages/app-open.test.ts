// The page between a visitor and an app's custom scheme (docs/design/app-schemes.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderAppOpen } from './app-open.ts';

const NONCE = 'abcdefghijklmnopqrstuv==';

test('opens the app by its nonce-tagged script, falls back to the web URL, and shows both as links', () => {
  const page = renderAppOpen({
    app: 'myapp://item?id=1&x="y"',
    fallback: 'https://example.com/a?b=1',
    pixels: [],
    nonce: NONCE,
  });
  assert.match(page.csp, new RegExp(`script-src 'nonce-${NONCE.replace(/[+/=]/g, '\\$&')}'`));
  assert.doesNotMatch(page.csp, /unsafe/);
  assert.ok(page.html.includes(`<script nonce="${NONCE}">`));
  assert.ok(
    page.html.includes('href="myapp://item?id=1&amp;x=&quot;y&quot;"'),
    'the app link escaped in its attribute',
  );
  assert.ok(page.html.includes('href="https://example.com/a?b=1"'));
  assert.ok(page.html.includes('1500'));
  assert.doesNotMatch(page.html, /<meta http-equiv="refresh"/, 'without JavaScript the visitor chooses');
});

test('refuses a script scheme or a fallback that is not http(s)', () => {
  assert.throws(() =>
    renderAppOpen({ app: 'javascript:alert(1)', fallback: 'https://example.com/', pixels: [], nonce: NONCE }),
  );
  assert.throws(() => renderAppOpen({ app: 'myapp://x', fallback: 'myapp://y', pixels: [], nonce: NONCE }));
});
