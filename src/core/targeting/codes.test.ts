import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COUNTRY_CODES, normalizeCountryCode } from './countries.ts';
import { LANGUAGE_CODES, normalizeLanguageCode } from './languages.ts';

test('country list holds the 249 assigned ISO 3166-1 alpha-2 codes', () => {
  assert.equal(COUNTRY_CODES.size, 249);
  for (const code of ['US', 'GB', 'DE', 'FR', 'JP', 'CN', 'SS', 'SX', 'CW', 'BQ', 'AX', 'AQ', 'UM', 'PS', 'TW', 'EH']) {
    assert.ok(COUNTRY_CODES.has(code), code);
  }
  for (const code of COUNTRY_CODES) assert.match(code, /^[A-Z]{2}$/);
});

test('country list excludes user-assigned, reserved and withdrawn codes', () => {
  // XK (Kosovo) is user-assigned; UK/EU/AC/... are exceptionally reserved;
  // AN/CS/YU/SU/ZR/TP/BU are withdrawn.
  for (const code of [
    'XK',
    'ZZ',
    'AA',
    'QM',
    'XA',
    'UK',
    'EU',
    'UN',
    'EZ',
    'AC',
    'IC',
    'FX',
    'AN',
    'CS',
    'YU',
    'SU',
    'ZR',
    'TP',
    'BU',
  ]) {
    assert.equal(COUNTRY_CODES.has(code), false, code);
  }
});

test('normalizeCountryCode upper-cases assigned codes and rejects the rest', () => {
  assert.equal(normalizeCountryCode('us'), 'US');
  assert.equal(normalizeCountryCode('Gb'), 'GB');
  assert.equal(normalizeCountryCode('DE'), 'DE');
  assert.equal(normalizeCountryCode('ss'), 'SS');
  for (const input of ['XX', 'xk', 'XK', 'usa', 'USA', 'U', '', ' US', 'US ', 'U1', '12', 'uk']) {
    assert.equal(normalizeCountryCode(input), null, JSON.stringify(input));
  }
  // Non-ASCII letters whose case mapping lands on ASCII must not slip through.
  assert.equal(normalizeCountryCode('ß'), null); // 'ß'.toUpperCase() === 'SS'
  assert.equal(normalizeCountryCode('ıt'), null); // dotless i upper-cases to 'I'
});

test('language list holds the 184 ISO 639-1 codes', () => {
  assert.equal(LANGUAGE_CODES.size, 184);
  for (const code of ['en', 'fr', 'de', 'es', 'zh', 'ja', 'ar', 'he', 'id', 'yi', 'ht', 'nb', 'nn', 'bh']) {
    assert.ok(LANGUAGE_CODES.has(code), code);
  }
  for (const code of LANGUAGE_CODES) assert.match(code, /^[a-z]{2}$/);
  // Withdrawn codes superseded by the ones above.
  for (const code of ['iw', 'in', 'ji', 'jw', 'mo', 'sh', 'xx', 'zz']) {
    assert.equal(LANGUAGE_CODES.has(code), false, code);
  }
});

test('normalizeLanguageCode lower-cases ISO 639-1 codes and rejects the rest', () => {
  assert.equal(normalizeLanguageCode('EN'), 'en');
  assert.equal(normalizeLanguageCode('Fr'), 'fr');
  assert.equal(normalizeLanguageCode('de'), 'de');
  for (const input of ['xx', 'eng', 'en-US', 'en_US', 'e', '', ' en', 'e1', 'iw']) {
    assert.equal(normalizeLanguageCode(input), null, JSON.stringify(input));
  }
  assert.equal(normalizeLanguageCode('\u212Aa'), null); // Kelvin sign lower-cases to 'k'
});
