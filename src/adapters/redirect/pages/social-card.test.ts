import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Parser } from 'htmlparser2';
import { renderSocialCard } from './social-card.ts';

/** The meta tags as a parser (an unfurler) reads them: property or name, and content. */
function metas(page: string): Map<string, string> {
  const found = new Map<string, string>();
  const parser = new Parser({
    onopentag(name, attributes) {
      const key = attributes.property ?? attributes.name;
      if (name === 'meta' && key !== undefined && attributes.content !== undefined) found.set(key, attributes.content);
    },
  });
  parser.end(page);
  return found;
}

test('a card with an image: og: and twitter: tags, summary_large_image, og:url the short URL', () => {
  const { html } = renderSocialCard({
    card: { title: 'Spring sale', description: 'Half off', image: 'https://cdn.example/s.png' },
    shortUrl: 'https://lnk.test/sale',
  });
  const m = metas(html);
  assert.equal(m.get('og:title'), 'Spring sale');
  assert.equal(m.get('og:description'), 'Half off');
  assert.equal(m.get('og:image'), 'https://cdn.example/s.png');
  assert.equal(m.get('og:url'), 'https://lnk.test/sale');
  assert.equal(m.get('twitter:card'), 'summary_large_image');
  assert.equal(m.get('twitter:title'), 'Spring sale');
  assert.equal(m.get('twitter:description'), 'Half off');
  assert.equal(m.get('twitter:image'), 'https://cdn.example/s.png');
});

test('no image: a summary card and no image tags; no title: the short URL stands in', () => {
  const { html } = renderSocialCard({
    card: { title: null, description: 'Only words', image: null },
    shortUrl: 'https://lnk.test/w',
  });
  const m = metas(html);
  assert.equal(m.get('twitter:card'), 'summary');
  assert.equal(m.has('og:image'), false);
  assert.equal(m.has('twitter:image'), false);
  assert.equal(m.get('og:title'), 'https://lnk.test/w');
});

test('every stored value is escaped: no attribute closed, no tag added', () => {
  const evil = `"><script>alert(1)</script><meta property="og:title" content="x`;
  const { html, csp } = renderSocialCard({
    card: { title: evil, description: `</p><img src=x onerror=alert(1)>'"`, image: `https://e.example/a"onload="x` },
    shortUrl: 'https://lnk.test/e',
  });
  assert.equal(html.includes('<script'), false);
  assert.equal(html.includes('<img'), false);
  assert.equal(html.includes('"onload'), false);
  const m = metas(html);
  assert.equal(m.get('og:title'), evil, 'read back as the text it was');
  assert.equal(m.get('og:image'), 'https://e.example/a"onload="x');
  assert.match(csp, /default-src 'none'/);
});
