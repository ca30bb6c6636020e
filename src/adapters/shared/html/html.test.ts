import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runInNewContext } from 'node:vm';
import { escapeHtml, html, httpUrl, inlineScript, jsString, raw, urlAttr } from './html.ts';
import { NONCE } from '../../web/pages/test-support.ts';

test('escapeHtml escapes & < > " \' and backticks', () => {
  assert.equal(escapeHtml(`&<>"'\``), '&amp;&lt;&gt;&quot;&#39;&#96;');
  assert.equal(escapeHtml('plain text'), 'plain text');
});

test('html escapes every interpolation by default', () => {
  const title = '</title><script>alert(1)</script>';
  assert.equal(
    html`<title>${title}</title>`.toString(),
    '<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>',
  );
});

test('html keeps hostile values inside their attribute, whichever quote the attribute uses', () => {
  const value = `x" onmouseover="alert(1)' autofocus onfocus='alert(2)`;
  const out = html`<a title="${value}" data-x='${value}'>`.toString();
  assert.doesNotMatch(out, /["']\s*on\w+=/);
  assert.equal((out.match(/"/g) ?? []).length, 2);
  assert.equal((out.match(/'/g) ?? []).length, 2);
});

test('raw() and nested html fragments are not escaped twice', () => {
  const inner = html`<b>${'a&b'}</b>`;
  assert.equal(html`<p>${inner}${raw('<i>ok</i>')}</p>`.toString(), '<p><b>a&amp;b</b><i>ok</i></p>');
});

test('arrays are joined, numbers printed, null/undefined/false omitted', () => {
  assert.equal(html`${['<', raw('<')]}|${3}|${null}${undefined}${false}`.toString(), '&lt;<|3|');
});

test('jsString round-trips and cannot close a <script> or open a comment', () => {
  for (const s of ['</script><script>alert(1)</script>', '</SCRIPT>', '<!--', 'a & b', `"'\\`, '\u2028\u2029', 'é😀']) {
    const out = jsString(s);
    assert.doesNotMatch(out, /[<>&\u2028\u2029]/);
    assert.equal(JSON.parse(out), s);
    // Also valid as a JavaScript expression (U+2028 in a literal was not, before ES2019).
    assert.equal(runInNewContext(out), s);
  }
  assert.equal(jsString('</script>'), '"\\u003c/script\\u003e"');
});

test('urlAttr lets only absolute http(s) URLs through', () => {
  for (const bad of [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    '\tjava\nscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
    '/relative',
    '//evil.test/x',
    'mailto:a@b.test',
    '',
    'http//x',
  ]) {
    assert.equal(urlAttr(bad), '#', bad);
  }
  assert.equal(urlAttr('https://example.com/a?b=1#c'), 'https://example.com/a?b=1#c');
  assert.equal(urlAttr('HTTP://Example.com:8080'), 'http://example.com:8080/');
});

test('urlAttr normalises characters that could end an attribute', () => {
  const out = urlAttr('https://x.test/"><script>alert(1)</script>');
  assert.equal(out, 'https://x.test/%22%3E%3Cscript%3Ealert(1)%3C/script%3E');
  assert.equal(httpUrl('ftp://x.test/'), null);
});

test('inlineScript carries the nonce and refuses a body that would end the element', () => {
  assert.equal(inlineScript(NONCE, 'var a=1;').toString(), `<script nonce="${NONCE}">var a=1;</script>`);
  assert.throws(() => inlineScript(NONCE, 'x="</ScRiPt>"'));
  assert.throws(() => inlineScript(NONCE, 'x="<!--"'));
});
