import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAcceptLanguage } from './accept-language.ts';

test('orders by weight, keeps primary subtags, drops * and duplicates', () => {
  assert.deepEqual(parseAcceptLanguage('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5'), ['fr', 'en', 'de']);
});

test('weights beat position; equal weights keep header order', () => {
  assert.deepEqual(parseAcceptLanguage('de;q=0.5, en-US, ja;q=0.8, it'), ['en', 'it', 'ja', 'de']);
  assert.deepEqual(parseAcceptLanguage('es;q=0.4,pt;q=0.4'), ['es', 'pt']);
});

test('a duplicate keeps its best weight', () => {
  assert.deepEqual(parseAcceptLanguage('en;q=0.2, de;q=0.5, en-GB;q=0.9'), ['en', 'de']);
});

test('q=0 means not acceptable', () => {
  assert.deepEqual(parseAcceptLanguage('en;q=0, de'), ['de']);
  assert.deepEqual(parseAcceptLanguage('en;q=0.000'), []);
});

test('lower-cases and tolerates spacing and parameter case', () => {
  assert.deepEqual(parseAcceptLanguage('EN-us ;Q=0.5 ,  PT-br'), ['pt', 'en']);
});

test('missing, empty and garbage headers give nothing; garbage parts are skipped', () => {
  assert.deepEqual(parseAcceptLanguage(undefined), []);
  assert.deepEqual(parseAcceptLanguage(''), []);
  assert.deepEqual(parseAcceptLanguage('*'), []);
  assert.deepEqual(parseAcceptLanguage(';;,,,=;q'), []);
  assert.deepEqual(parseAcceptLanguage('<script>, en_US, e, 12, de;q=abc, it;q=-1, es'), ['es']);
  // Outside RFC 9110's grammar, a weight is read as negotiator reads it: the number written (q=1.5
  // weighs 1.5), and a parameter without "=" is ignored, not the entry (accept-language-reference.test.ts).
  assert.deepEqual(parseAcceptLanguage('<script>, en_US, e, 12, de;q=abc, fr;q=1.5, it;q=-1, nl;x, es'), [
    'fr',
    'nl',
    'es',
  ]);
  assert.deepEqual(parseAcceptLanguage('zh-Hant-TW, en;q=0.9;level=1'), ['zh', 'en']);
});

test('huge headers: only the first 50 entries and 1000 characters are read', () => {
  // entries past the 50th are never weighed, even with a higher q
  const header = ['de;q=0.1', ...Array.from({ length: 49 }, () => 'xx;q=0.2'), 'en'].join(',');
  assert.deepEqual(parseAcceptLanguage(header), ['xx', 'de']);

  assert.deepEqual(parseAcceptLanguage(`fr, ${'a'.repeat(2000)}, en`), ['fr']);
  // "en-GB;q=0.1" is cut to "en-G", which would otherwise pass as en with q=1
  const cut = `de;q=0.5${' '.repeat(986)}, en-GB;q=0.1`;
  assert.equal(cut.slice(996, 1000), 'en-G');
  assert.deepEqual(parseAcceptLanguage(cut), ['de']);

  // A 1.8 MB header is read only to its 1000-character cut: what bounds the work is the cut
  // above, which the answers prove; no timing here (a loaded machine would fail a timed test).
  const huge = 'en;q=0.5,'.repeat(200_000);
  assert.deepEqual(parseAcceptLanguage(huge), ['en']);
});
