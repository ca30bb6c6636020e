import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CountryLookup } from '../geo/country-lookup.ts';
import { visitorFrom } from './visitor-from-request.ts';

const deps = { countries: CountryLookup.open() };
const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

test('combines address, User-Agent, Accept-Language and Referer', () => {
  const visitor = visitorFrom(
    {
      ip: '::ffff:81.2.69.160',
      headers: {
        'user-agent': iphone,
        'accept-language': 'fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5',
        referer: 'https://WWW.Example.COM/some/path?q=1',
      },
    },
    deps,
  );
  assert.deepEqual(visitor, {
    country: 'GB',
    platform: 'iOS',
    languages: ['fr', 'en', 'de'],
    browser: 'Mobile Safari',
    device: 'mobile',
    isBot: false,
    refusesTracking: false,
    referrerHost: 'www.example.com',
  });
});

test('a bare request knows nothing and is treated as a bot', () => {
  assert.deepEqual(visitorFrom({ ip: '127.0.0.1', headers: {} }, deps), {
    country: null,
    platform: null,
    languages: [],
    browser: null,
    device: null,
    isBot: true,
    refusesTracking: false,
    referrerHost: null,
  });
});

test('bots are flagged', () => {
  const v = visitorFrom(
    {
      ip: '8.8.8.8',
      headers: { 'user-agent': 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)' },
    },
    deps,
  );
  assert.equal(v.isBot, true);
  assert.equal(v.country, 'US');
});

test('DNT: 1 or Sec-GPC: 1 refuse tracking; other values do not', () => {
  const refuses = (headers: Record<string, string | string[]>) =>
    visitorFrom({ ip: '8.8.8.8', headers }, deps).refusesTracking;
  assert.equal(refuses({ dnt: '1' }), true);
  assert.equal(refuses({ 'sec-gpc': '1' }), true);
  assert.equal(refuses({ dnt: ' 1 ' }), true);
  assert.equal(refuses({ dnt: '0' }), false);
  assert.equal(refuses({ 'sec-gpc': 'true' }), false);
  assert.equal(refuses({ dnt: ['0', '1'] }), true);
  assert.equal(refuses({}), false);
});

test('referrer host: parsed safely, lower case, null when absent or unusable', () => {
  const host = (referer: string | string[] | undefined) =>
    visitorFrom({ ip: '8.8.8.8', headers: { referer } }, deps).referrerHost;
  assert.equal(host('http://user:pw@News.Ycombinator.com:8080/item?id=1'), 'news.ycombinator.com');
  assert.equal(host('https://example.org./'), 'example.org');
  assert.equal(host('android-app://com.Google.Android.gm/'), 'com.google.android.gm');
  assert.equal(host('https://[2001:DB8::1]/'), '[2001:db8::1]');
  assert.equal(host(['https://a.example/', 'https://b.example/']), 'a.example');
  for (const bad of [
    undefined,
    '',
    'not a url',
    '/relative/path',
    'javascript:alert(1)',
    'data:text/html,hi',
    `https://a.example/${'x'.repeat(5000)}`,
  ]) {
    assert.equal(host(bad), null, String(bad).slice(0, 30));
  }
});

test('repeated Accept-Language headers are read as one list', () => {
  const v = visitorFrom({ ip: '8.8.8.8', headers: { 'accept-language': ['de;q=0.5', 'en'] } }, deps);
  assert.deepEqual(v.languages, ['en', 'de']);
});
