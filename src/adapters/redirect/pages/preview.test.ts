import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderPreview } from './preview.ts';
import { HOSTILE, NONCE, assertNoInjection, assertStrictCsp } from '../../shared/html/test-support.ts';

const base = { nonce: NONCE, shortUrl: 'https://lnk.test/abc' };

test('shows the short URL, the title and the destination as text and as a safe link', () => {
  const page = renderPreview({ ...base, destination: 'https://example.com/a?b=1&c=2', title: 'Example & co' });
  assert.ok(page.html.includes('<dd class="url">https://lnk.test/abc</dd>'));
  assert.ok(page.html.includes('<dd>Example &amp; co</dd>'));
  assert.ok(page.html.includes('<dd class="url">https://example.com/a?b=1&amp;c=2</dd>'));
  assert.ok(page.html.includes('<a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer nofollow">'));
  assertNoInjection(page.html);
  assertStrictCsp(page.csp);
});

test('leaves the title out when it is unknown or blank', () => {
  for (const title of [undefined, null, '  ']) {
    assert.ok(!renderPreview({ ...base, destination: 'https://example.com/', title }).html.includes('Page title'));
  }
});

test('a hostile title stays text', () => {
  const page = renderPreview({ ...base, destination: 'https://example.com/', title: HOSTILE.title });
  assert.ok(page.html.includes('<dd>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</dd>'));
  assertNoInjection(page.html);
});

test('a javascript: destination is shown but never linked', () => {
  const page = renderPreview({ ...base, destination: HOSTILE.jsUrl });
  assert.ok(page.html.includes('<dd class="url">javascript:alert(1)</dd>'));
  assert.ok(!page.html.includes('<a '));
  assert.ok(page.html.includes('not a web address'));
  assertNoInjection(page.html);
});

test('a destination that tries to close its attribute stays inside it', () => {
  const page = renderPreview({ ...base, destination: HOSTILE.breakoutUrl, title: HOSTILE.quotes });
  assert.ok(page.html.includes('<dd class="url">https://x.test/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</dd>'));
  assert.ok(page.html.includes('href="https://x.test/%22%3E%3Cscript%3Ealert(1)%3C/script%3E"'));
  assert.ok(page.html.includes('it&#39;s a &quot;quote&quot; &#96;tick&#96;'));
  assertNoInjection(page.html);
});

test('a hostile short URL is escaped too', () => {
  const page = renderPreview({ nonce: NONCE, shortUrl: HOSTILE.breakoutUrl, destination: 'https://example.com/' });
  assertNoInjection(page.html);
});
