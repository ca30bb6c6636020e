import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractTitle, TitleScanner } from './extract-title.ts';

test('returns the first title, whatever the case of the tag', () => {
  assert.equal(extractTitle('<html><head><TITLE>Hello</Title></head><title>Second</title>'), 'Hello');
});

test('accepts attributes on the tag and whitespace in the closing tag', () => {
  assert.equal(extractTitle('<title lang="en">Hi</title >'), 'Hi');
});

test('does not mistake a longer tag name for <title>', () => {
  assert.equal(extractTitle('<titles>no</titles><title>yes</title>'), 'yes');
});

test('decodes the common entities', () => {
  assert.equal(
    extractTitle('<title>Tom &amp; Jerry &lt;3 &gt; &quot;cats&quot; &#39;n&#39; &apos;mice&apos;</title>'),
    `Tom & Jerry <3 > "cats" 'n' 'mice'`,
  );
});

test('decodes decimal and hex character references', () => {
  assert.equal(extractTitle('<title>caf&#233; &#x2603; &#X1F600;</title>'), 'café ☃ 😀');
  assert.equal(extractTitle('<title>It&#x27;s &#39;quoted&#X27;</title>'), "It's 'quoted'");
});

test('decodes in one pass, so escaped entities stay escaped', () => {
  assert.equal(extractTitle('<title>&amp;lt;b&amp;gt;</title>'), '&lt;b&gt;');
});

test('leaves unknown entities alone and replaces impossible code points', () => {
  assert.equal(extractTitle('<title>&bogus; &#0; &#xD800; &#x110000;</title>'), '&bogus; \uFFFD \uFFFD \uFFFD');
});

test('decodes every named entity, and the legacy ones without a semicolon', () => {
  assert.equal(
    extractTitle('<title>Caf&eacute; &mdash; &copy; 2026 &hellip; &rarr; &Omega; &frac12;</title>'),
    'Café — © 2026 … → Ω ½',
  );
  assert.equal(extractTitle('<title>Caf&eacute &amp co</title>'), 'Café & co');
});

test('decodes numeric references as HTML does, windows-1252 bytes included', () => {
  assert.equal(extractTitle('<title>&#150; &#x93;q&#x94; &#128;</title>'), '– “q” €');
});

test("skips a <title> inside SVG or MathML for the page's own", () => {
  assert.equal(extractTitle('<html><head><svg><title>Icon</title></svg><title>Page</title></head></html>'), 'Page');
  assert.equal(
    extractTitle(
      '<body><svg viewBox="0 0 1 1"><g><title>Logo</title></g></svg><math><title>m</title></math></body><title>Late</title>',
    ),
    'Late',
  );
  assert.equal(extractTitle('<svg/><title>After a self-closed svg</title>'), 'After a self-closed svg');
  assert.equal(extractTitle('<svg><title>Only an icon</title></svg>'), null);
});

test('does not look in comments, scripts, styles or templates', () => {
  assert.equal(
    extractTitle(
      '<!-- <title>old</title> --><script>x = "<title>js</title>"</script><style>/*<title>css</title>*/</style>' +
        '<template><title>tpl</title></template><title>Real</title>',
    ),
    'Real',
  );
});

test('does not look in what a browser reads as plain text', () => {
  assert.equal(
    extractTitle(
      '<noscript><iframe src="/tag"><title>frame</title></iframe></noscript><noembed><title>e</title></noembed>' +
        '<noframes><title>f</title></noframes><textarea><title>t</title></textarea><xmp><title>x</title></xmp><title>Real</title>',
    ),
    'Real',
  );
});

test('takes a title outside the head, as browsers do, but never one inside SVG in the body', () => {
  assert.equal(
    extractTitle('<html><head><meta charset="utf-8"></head><body><h1>Hi</h1><title>In the body</title></body></html>'),
    'In the body',
  );
  assert.equal(extractTitle('<html><head></head><body><svg><title>Icon</title></svg><p>text</p></body></html>'), null);
});

test('takes the title in pieces and says when it is complete', () => {
  const scanner = new TitleScanner();
  assert.equal(scanner.write('<svg><title>no</title></svg><ti'), false);
  assert.equal(scanner.write('tle>Split &amp'), false);
  assert.equal(scanner.write('; joined</ti'), false);
  assert.equal(scanner.write('tle><body>'), true);
  assert.equal(scanner.title, 'Split & joined');
});

test('collapses whitespace and trims', () => {
  assert.equal(extractTitle('<title>\n   Hello \t\r\n  world &nbsp; </title>'), 'Hello world');
});

test('turns control characters into spaces', () => {
  assert.equal(extractTitle('<title>a\u0000b\u0007c\u0085d</title>'), 'a b c d');
});

test('cuts to 255 characters without splitting a surrogate pair', () => {
  assert.equal(extractTitle(`<title>${'a'.repeat(300)}</title>`), 'a'.repeat(255));
  const emoji = extractTitle(`<title>${'😀'.repeat(300)}</title>`);
  assert.equal(emoji, '😀'.repeat(255));
});

test('does not leave trailing whitespace after cutting', () => {
  assert.equal(extractTitle(`<title>${'a'.repeat(254)} bbb</title>`), 'a'.repeat(254));
});

test('returns null without a complete title', () => {
  assert.equal(extractTitle(''), null);
  assert.equal(extractTitle('<html><body>nothing</body></html>'), null);
  assert.equal(extractTitle('<title>never closed'), null);
});

test('returns null for a blank title', () => {
  assert.equal(extractTitle('<title>  \n </title>'), null);
  assert.equal(extractTitle('<title>&nbsp;</title>'), null);
});

test('treats markup inside the title as text', () => {
  assert.equal(extractTitle('<title><b>bold</b></title>'), '<b>bold</b>');
});
