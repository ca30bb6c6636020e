import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runInNewContext } from 'node:vm';
import { PIXEL_TYPES } from '../../../core/pixels/pixel.ts';
import { jsString } from '../../shared/html/html.ts';
import { renderPixelRedirect } from './pixel-redirect.ts';
import { HOSTILE, NONCE, assertNoInjection, assertStrictCsp, inlineScripts } from './test-support.ts';

const DEST = 'https://example.com/landing?utm=1&x=y#top';
const all = PIXEL_TYPES.map((type) => ({ type, value: 'ID123' }));

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

test('every pixel loads and the destination appears once in script and in the fallbacks', () => {
  const page = renderPixelRedirect({ destination: DEST, pixels: all, nonce: NONCE, delayMs: 1000 });
  const scripts = inlineScripts(page.html);
  assert.equal(scripts.length, all.length + 1);
  assert.equal(count(scripts.join('\n'), jsString(DEST)), 1);
  assert.equal(count(page.html, jsString(DEST)), 1);
  assert.ok(
    page.html.includes(
      '<noscript><meta http-equiv="refresh" content="1; url=https://example.com/landing?utm=1&amp;x=y#top"></noscript>',
    ),
  );
  assert.ok(page.html.includes('<a href="https://example.com/landing?utm=1&amp;x=y#top">Continue</a>'));
  assert.ok(scripts.at(-1)?.includes('location.replace(u)'));
  assertNoInjection(page.html);
  assertStrictCsp(page.csp);
});

test('the CSP allows exactly the hosts of the attached vendors', () => {
  const page = renderPixelRedirect({
    destination: DEST,
    pixels: [{ type: 'facebook', value: '1' }],
    nonce: NONCE,
    delayMs: 500,
  });
  assert.equal(
    page.csp,
    `default-src 'none'; script-src 'nonce-${NONCE}' https://connect.facebook.net; style-src 'nonce-${NONCE}'; ` +
      'img-src https://www.facebook.com; connect-src https://www.facebook.com; frame-src https://www.facebook.com; ' +
      "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  );
});

test('hostile destinations: script URLs are refused, quotes and tags stay encoded', () => {
  assert.throws(() => renderPixelRedirect({ destination: HOSTILE.jsUrl, pixels: all, nonce: NONCE, delayMs: 1000 }));
  assert.throws(() =>
    renderPixelRedirect({ destination: 'data:text/html,x', pixels: [], nonce: NONCE, delayMs: 1000 }),
  );
  for (const destination of [HOSTILE.breakoutUrl, `https://x.test/?q=</script><script>alert(1)</script>&s='"\``]) {
    const page = renderPixelRedirect({ destination, pixels: all, nonce: NONCE, delayMs: 1000 });
    assertNoInjection(page.html);
    for (const body of inlineScripts(page.html)) assert.ok(!body.includes('</script'));
  }
});

test('the wait is clamped to one second and the noscript refresh follows it', () => {
  const slow = renderPixelRedirect({ destination: DEST, pixels: [], nonce: NONCE, delayMs: 60_000 });
  assert.ok(slow.html.includes('setTimeout(go,1000)'));
  assert.ok(slow.csp.includes(`script-src 'nonce-${NONCE}';`));
  const now = renderPixelRedirect({ destination: DEST, pixels: [], nonce: NONCE, delayMs: 0 });
  assert.ok(now.html.includes('content="0; url='));
});

/** Runs the redirect script against a fake window; returns where it went and when. */
function simulate(delayMs: number, loadAt: number | null): { url: string; at: number; calls: number } {
  const page = renderPixelRedirect({ destination: DEST, pixels: [], nonce: NONCE, delayMs });
  const timers: { at: number; fn: () => void }[] = [];
  let now = 0;
  let onLoad: (() => void) | undefined;
  const went: { url: string; at: number }[] = [];
  const win = {
    setTimeout: (fn: () => void, ms: number) => timers.push({ at: now + ms, fn }),
    addEventListener: (name: string, fn: () => void) => {
      if (name === 'load') onLoad = fn;
    },
    location: { replace: (url: string) => went.push({ url, at: now }) },
  };
  runInNewContext(inlineScripts(page.html).at(-1) ?? '', win);
  if (loadAt !== null) timers.push({ at: loadAt, fn: () => onLoad?.() });
  while (timers.length > 0) {
    timers.sort((a, b) => a.at - b.at);
    const next = timers.shift()!;
    now = next.at;
    next.fn();
  }
  assert.ok(went.length >= 1, 'never redirected');
  return { ...went[0]!, calls: went.length };
}

test('redirects once, shortly after load, or at the hard limit when load never comes', () => {
  assert.deepEqual(simulate(1000, 100), { url: DEST, at: 300, calls: 1 });
  assert.deepEqual(simulate(1000, 950), { url: DEST, at: 1000, calls: 1 });
  assert.deepEqual(simulate(1000, null), { url: DEST, at: 1000, calls: 1 });
});
