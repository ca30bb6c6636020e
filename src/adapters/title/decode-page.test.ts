import { test } from 'node:test';
import assert from 'node:assert/strict';
import iconv from 'iconv-lite';
import { decodePage } from './decode-page.ts';

// Pages are built from text and a charset, so each case reads as what a browser would show.
const encoded = (text: string, charset: string): Buffer => iconv.encode(text, charset);
const ascii = (text: string): Buffer => Buffer.from(text, 'latin1');
const bytes = (...parts: Buffer[]): Buffer => Buffer.concat(parts);
const hex = (text: string): Buffer => Buffer.from(text, 'hex');

test('decodes in the charset the Content-Type header names', () => {
  assert.equal(
    decodePage(encoded('<title>日本語のページ</title>', 'shift_jis'), 'text/html; charset=Shift_JIS'),
    '<title>日本語のページ</title>',
  );
  assert.equal(
    decodePage(encoded('<title>한국어 제목</title>', 'euc-kr'), 'text/html; charset=euc-kr'),
    '<title>한국어 제목</title>',
  );
  assert.equal(
    decodePage(encoded('<title>中文标题</title>', 'gbk'), 'text/html;charset=GBK'),
    '<title>中文标题</title>',
  );
  assert.equal(
    decodePage(encoded('<title>Łódź</title>', 'iso-8859-2'), 'text/html; charset="iso-8859-2"'),
    '<title>Łódź</title>',
  );
});

test('reads windows-1252, also under the latin1 labels the Encoding standard maps to it', () => {
  const page = encoded('<title>Café “quoted” – 5 €</title>', 'windows-1252');
  assert.equal(decodePage(page, 'text/html; charset=windows-1252'), '<title>Café “quoted” – 5 €</title>');
  assert.equal(decodePage(page, 'text/html; charset=ISO-8859-1'), '<title>Café “quoted” – 5 €</title>');
  assert.equal(decodePage(page, 'text/html; charset=us-ascii'), '<title>Café “quoted” – 5 €</title>');
});

test('without a header charset, sniffs <meta charset> and <meta http-equiv> in the first bytes', () => {
  const title = encoded('<title>日本語のページ</title>', 'shift_jis');
  assert.equal(
    decodePage(bytes(ascii('<meta charset="shift_jis">'), title), 'text/html'),
    '<meta charset="shift_jis"><title>日本語のページ</title>',
  );
  const httpEquiv = '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">';
  assert.equal(decodePage(bytes(ascii(httpEquiv), title), 'text/html'), `${httpEquiv}<title>日本語のページ</title>`);
  // The title may come first: the whole sniffing window counts.
  const late = bytes(encoded('<title>Łódź</title>', 'iso-8859-2'), ascii('<meta charset=iso-8859-2>'));
  assert.equal(decodePage(late, 'text/html'), '<title>Łódź</title><meta charset=iso-8859-2>');
});

test('ignores a <meta> beyond the first 1024 bytes, as browsers do', () => {
  const page = bytes(
    ascii(`<!--${' '.repeat(1024)}-->`),
    ascii('<meta charset="windows-1252"><title>caf'),
    hex('e9'),
    ascii('</title>'),
  );
  assert.match(decodePage(page, 'text/html'), /<title>caf\uFFFD<\/title>$/);
});

test('the header charset wins over a <meta> that says otherwise', () => {
  const page = bytes(ascii('<meta charset="utf-8">'), encoded('<title>Łódź</title>', 'iso-8859-2'));
  assert.equal(decodePage(page, 'text/html; charset=iso-8859-2'), '<meta charset="utf-8"><title>Łódź</title>');
});

test('a byte order mark wins over the header and the <meta>, as the HTML standard says', () => {
  const utf8 = bytes(hex('efbbbf'), ascii('<meta charset="iso-8859-2">'), Buffer.from('<title>Łódź</title>'));
  assert.equal(decodePage(utf8, 'text/html; charset=windows-1252'), '<meta charset="iso-8859-2"><title>Łódź</title>');
  assert.equal(
    decodePage(bytes(hex('fffe'), Buffer.from('<title>Ωmega</title>', 'utf16le')), 'text/html'),
    '<title>Ωmega</title>',
  );
  assert.equal(
    decodePage(bytes(hex('feff'), encoded('<title>Ωmega</title>', 'utf-16be')), 'text/html; charset=utf-8'),
    '<title>Ωmega</title>',
  );
});

test('falls back to UTF-8, never throwing, for a missing, unknown or undecodable charset', () => {
  const page = Buffer.from('<title>ünïcode ✓</title>');
  assert.equal(decodePage(page, 'text/html'), '<title>ünïcode ✓</title>');
  assert.equal(decodePage(page, ''), '<title>ünïcode ✓</title>');
  assert.equal(decodePage(page, 'text/html; charset=x-no-such-charset'), '<title>ünïcode ✓</title>');
  assert.equal(decodePage(page, 'text/html; charset='), '<title>ünïcode ✓</title>');
  // Labels of the Encoding standard's "replacement" encoding, which has no decoder here.
  assert.equal(decodePage(page, 'text/html; charset=iso-2022-kr'), '<title>ünïcode ✓</title>');
  assert.equal(
    decodePage(bytes(ascii('<meta charset="hz-gb-2312">'), page), 'text/html'),
    '<meta charset="hz-gb-2312"><title>ünïcode ✓</title>',
  );
});

test('replaces bytes that are not valid in the charset instead of failing', () => {
  assert.equal(
    decodePage(bytes(ascii('<title>caf'), hex('e9'), ascii('</title>')), 'text/html; charset=utf-8'),
    '<title>caf\uFFFD</title>',
  );
});
