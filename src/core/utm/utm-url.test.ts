import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyUtm, type UtmParams } from './utm-params.ts';
import { composeUtm, readUtm } from './utm-url.ts';

const utm = (fields: Partial<UtmParams>): UtmParams => ({ ...emptyUtm(), ...fields });

test('the parameters are added after the destination’s own, before its fragment', () => {
  assert.equal(
    composeUtm('https://example.com/p', utm({ utm_source: 'news', utm_medium: 'email' })),
    'https://example.com/p?utm_source=news&utm_medium=email',
  );
  assert.equal(
    composeUtm('https://example.com/p?a=1&b#top', utm({ utm_campaign: 'spring' })),
    'https://example.com/p?a=1&b&utm_campaign=spring#top',
  );
  assert.equal(
    composeUtm('https://example.com/#/app?x=1', utm({ utm_term: 't' })),
    'https://example.com/?utm_term=t#/app?x=1',
  );
  assert.equal(composeUtm('https://example.com/p?', utm({ utm_source: 's' })), 'https://example.com/p?utm_source=s');
});

test('the five are always written in the same order, whatever order they were set in', () => {
  assert.equal(
    composeUtm(
      'https://example.com/',
      utm({ utm_content: 'e', utm_term: 'd', utm_campaign: 'c', utm_medium: 'b', utm_source: 'a' }),
    ),
    'https://example.com/?utm_source=a&utm_medium=b&utm_campaign=c&utm_term=d&utm_content=e',
  );
});

test('a parameter the destination has keeps its place; a changed value replaces it; a repeat is dropped', () => {
  assert.equal(
    composeUtm('https://example.com/?utm_medium=old&x=1', utm({ utm_medium: 'new' })),
    'https://example.com/?utm_medium=new&x=1',
  );
  assert.equal(
    composeUtm('https://example.com/?utm_source=a&x=1&utm_source=b', utm({ utm_source: 'a' })),
    'https://example.com/?utm_source=a&x=1',
  );
});

test('an empty field takes its parameter out; none left takes the ? out too', () => {
  assert.equal(composeUtm('https://example.com/?utm_source=a&x=1', emptyUtm()), 'https://example.com/?x=1');
  assert.equal(composeUtm('https://example.com/p?utm_source=a&utm_medium=b#f', emptyUtm()), 'https://example.com/p#f');
  // A parameter without a value reads as empty, so it goes as well.
  assert.equal(composeUtm('https://example.com/?utm_source&utm_medium=&x=', emptyUtm()), 'https://example.com/?x=');
});

test('values are percent-encoded and read back decoded', () => {
  const composed = composeUtm(
    'https://example.com/',
    utm({ utm_campaign: 'été 2026 & more', utm_content: 'a=b#c?d/+' }),
  );
  assert.equal(
    composed,
    'https://example.com/?utm_campaign=%C3%A9t%C3%A9%202026%20%26%20more&utm_content=a%3Db%23c%3Fd%2F%2B',
  );
  assert.deepEqual(readUtm(composed), utm({ utm_campaign: 'été 2026 & more', utm_content: 'a=b#c?d/+' }));
  assert.deepEqual(
    readUtm('https://example.com/?utm_term=a+b&utm_source=%zz'),
    utm({ utm_term: 'a b', utm_source: '%zz' }),
  );
});

test('what was read composes back to the very same text (nothing is re-encoded)', () => {
  for (const url of [
    'https://example.com/?utm_term=a+b&utm_source=x%20y&other=%7E',
    'https://EXAMPLE.com/a/../b?utm_source=s&&x=#frag',
    'https://example.com',
  ]) {
    assert.equal(composeUtm(url, readUtm(url)), url);
  }
});

test('only the five are read, the first of a repeat, and fragments hold none', () => {
  assert.deepEqual(
    readUtm('https://example.com/?utm_source=a&utm_source=b&utm_id=9&UTM_MEDIUM=x#utm_campaign=c'),
    utm({ utm_source: 'a' }),
  );
  assert.deepEqual(readUtm('not a url'), emptyUtm());
  assert.deepEqual(readUtm(''), emptyUtm());
});

test('a blank destination stays blank: there is nothing to add parameters to', () => {
  assert.equal(composeUtm('', utm({ utm_source: 'a' })), '');
  assert.equal(composeUtm('  ', utm({ utm_source: 'a' })), '  ');
});
