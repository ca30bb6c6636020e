import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeByUrl, mergeQuery, mergesWithoutParsing } from './merge-query.ts';

test("the visit's parameters are added; the destination's own, its port and fragment are kept", () => {
  assert.equal(mergeQuery('https://example.com/p', 'utm_source=x&b'), 'https://example.com/p?utm_source=x&b');
  assert.equal(mergeQuery('https://example.com/p?a=1#top', 'a=2&utm=x'), 'https://example.com/p?a=1&utm=x#top');
  assert.equal(mergeQuery('http://example.com:8080/p', 'x=%20y'), 'http://example.com:8080/p?x=%20y');
  assert.equal(mergeQuery('https://example.com/p', ''), 'https://example.com/p');
  assert.equal(mergeQuery('https://example.com/p', '&&'), 'https://example.com/p');
  assert.equal(mergeQuery('https://example.com/p', '?a=1'), 'https://example.com/p?a=1');
  assert.equal(mergeQuery('not a url', 'a=1'), 'not a url');
});

test('the common case skips the parser and gives what the parser gives, whatever the input', () => {
  const destinations = [
    'https://example.com/',
    'https://example.com/landing/42',
    'http://a-b.example.org/x.html',
    'https://localhost/p',
    'https://example.com/a/b/c;v=1/d:e@f',
    "https://example.com/it's/(x)*+,$!~_-",
    'https://example.com/%7Euser/%zz',
    'https://example.com/a..b/c.',
    'https://example.com//double',
    'https://EXAMPLE.com/p',
    'HTTPS://example.com/p',
    'https://example.com',
    'https://example.com:443/p',
    'https://example.com:8443/p',
    'https://u:p@example.com/p',
    'https://example.com/p?own=1',
    'https://example.com/p#frag',
    'https://example.com/./p',
    'https://example.com/a/../p',
    'https://example.com/a/%2e%2E/p',
    'https://example.com/.well-known/x',
    'https://example.com/a b',
    'https://example.com/a\\b',
    'https://example.com/ä',
    'https://xn--bcher-kva.example/p',
    'https://example.xn--p1ai/p',
    'https://xn--invalid/p',
    'https://127.0.0.1/p',
    'https://0x7f.1/p',
    'https://1.2.3.4.5/p',
    'https://example.123/p',
    'https://a.b9/p',
    'https://example.com./p',
    'https://-a-.example/p',
    'https://ex_ample.com/p',
    'https://[::1]/p',
    'ftp://example.com/p',
    'mailto:a@example.com',
    'https://example.com/a{b}|c^d`e',
    'https://example.com/"q"<x>',
  ];
  const queries = [
    'a=1',
    'utm_source=newsletter&utm_medium=email',
    'ref=bench',
    'a',
    '=x',
    'a=&b',
    '&a=1&&b=2&',
    'a=%20b&c=%zz',
    'a=1&a=2',
    'x=y/z:w@v',
    "q='x'",
    'q="x"',
    'q=<x>',
    'q=a b',
    'q=#frag',
    '?a=1',
    'a?b=1',
    'q=é',
    'q=[x]{y}|z^`\\',
    'own=2&new=3',
    'q=+plus',
    '%61=1',
    'a=1;b=2',
    '&',
    '&&&',
  ];
  let fast = 0;
  for (const d of destinations) {
    for (const q of queries) {
      if (mergesWithoutParsing(d, q)) fast++;
      assert.equal(mergeQuery(d, q), mergeByUrl(d, q), `${d} + ${q}`);
    }
  }
  assert.ok(fast > 150, `only ${fast} merges skipped the parser`);
  assert.ok(mergesWithoutParsing('https://example.com/landing/42', 'utm_source=newsletter&utm_medium=email'));
});

test('and on 20 000 random destinations and queries (fixed seed)', () => {
  let seed = 7;
  const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  const pick = (alphabet: string, max: number) =>
    Array.from({ length: random(max + 1) }, () => alphabet[random(alphabet.length)]).join('');
  const HOST = 'abcxyz0129-.XN';
  const PATH = 'abcAZ09-._~!$&\'()*+,;=:@%/2eE?#\\ "<>{}|^`[]é';
  const QUERY = 'abAZ09-._~!$&\'()*+,;=:@%/?#"<> é[]';
  let fast = 0;
  for (let i = 0; i < 20_000; i++) {
    const d = `${random(5) === 0 ? 'HTTP' : 'https'}://${pick(HOST, 12)}/${pick(PATH, 12)}`;
    const q = `${QUERY[random(QUERY.length)]}${pick(QUERY, 10)}`; // not empty: an empty query returns the destination as stored
    if (mergesWithoutParsing(d, q)) fast++;
    assert.equal(mergeQuery(d, q), mergeByUrl(d, q), `${d} + ${q}`);
  }
  assert.ok(fast > 200, `only ${fast} merges skipped the parser`);
});
