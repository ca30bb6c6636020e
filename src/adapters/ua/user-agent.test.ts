import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeUserAgent } from './user-agent.ts';

const UA = {
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  androidChrome:
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  androidTablet:
    'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  androidFirefox: 'Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0',
  windowsEdge:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.80',
  windowsChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  macSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15',
  ubuntuFirefox: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  fedoraFirefox: 'Mozilla/5.0 (X11; Fedora; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  linuxChrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  chromebook:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  windowsPhone:
    'Mozilla/5.0 (Windows Phone 10.0; Android 6.0.1; Microsoft; Lumia 950) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0.2743.116 Mobile Safari/537.36 Edge/15.14977',
  freebsd: 'Mozilla/5.0 (X11; FreeBSD amd64; rv:125.0) Gecko/20100101 Firefox/125.0',
};

const BOTS = {
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  googlebotSmartphone:
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.201 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  bingbot: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  twitter: 'Twitterbot/1.0',
  curl: 'curl/8.5.0',
  pythonRequests: 'python-requests/2.31.0',
  headlessChrome:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36',
};

test('the seven platforms from real browsers', () => {
  const cases: Array<[string, string | null, string | null, string | null]> = [
    // ua, platform, browser, device
    [UA.iphoneSafari, 'iOS', 'Mobile Safari', 'mobile'],
    [UA.ipad, 'iOS', 'Mobile Safari', 'tablet'],
    [UA.androidChrome, 'Android', 'Chrome', 'mobile'],
    [UA.androidTablet, 'Android', 'Chrome', 'tablet'],
    [UA.androidFirefox, 'Android', 'Firefox', 'mobile'],
    [UA.windowsEdge, 'Windows', 'Edge', 'desktop'],
    [UA.windowsChrome, 'Windows', 'Chrome', 'desktop'],
    [UA.macSafari, 'OS X', 'Safari', 'desktop'],
    [UA.ubuntuFirefox, 'Ubuntu', 'Firefox', 'desktop'],
    [UA.fedoraFirefox, 'Linux', 'Firefox', 'desktop'],
    [UA.linuxChrome, 'Linux', 'Chrome', 'desktop'],
    [UA.chromebook, 'Chrome OS', 'Chrome', 'desktop'],
  ];
  for (const [ua, platform, browser, device] of cases) {
    assert.deepEqual(describeUserAgent(ua), { platform, browser, device, isBot: false }, ua);
  }
});

test('operating systems outside the seven have no platform', () => {
  assert.equal(describeUserAgent(UA.windowsPhone).platform, null);
  const bsd = describeUserAgent(UA.freebsd);
  assert.equal(bsd.platform, null);
  assert.equal(bsd.device, null);
  assert.equal(bsd.browser, 'Firefox');
});

test('crawlers, preview fetchers and automation are bots', () => {
  for (const [name, ua] of Object.entries(BOTS)) assert.equal(describeUserAgent(ua).isBot, true, name);
  assert.equal(describeUserAgent(BOTS.headlessChrome).platform, 'Linux');
});

test('a missing or blank User-Agent is treated as a bot', () => {
  for (const ua of [undefined, '', '   ']) {
    assert.deepEqual(describeUserAgent(ua), { platform: null, browser: null, device: null, isBot: true });
  }
});

test('garbage and oversized strings are described without throwing', () => {
  assert.deepEqual(describeUserAgent('\u0000\uffff<>'), { platform: null, browser: null, device: null, isBot: false });
  // Only the first 500 characters are parsed (and cached): a megabyte of tail is described as
  // its head is, which is what bounds the work (no timing here: a loaded machine would fail it).
  const huge = UA.windowsChrome + ' x'.repeat(500_000);
  assert.deepEqual(describeUserAgent(huge), describeUserAgent((UA.windowsChrome + ' x'.repeat(500_000)).slice(0, 500)));
  assert.equal(describeUserAgent(huge).platform, 'Windows');
});

test('repeated strings come from the cache, and the cache stays bounded', () => {
  const a = describeUserAgent(UA.macSafari);
  assert.equal(describeUserAgent(UA.macSafari), a);
  for (let i = 0; i < 1500; i++) describeUserAgent(`${UA.linuxChrome} v${i}`);
  const b = describeUserAgent(UA.macSafari);
  assert.notEqual(b, a, 'evicted after 1500 newer strings');
  assert.deepEqual(b, a);
  // recently used entries survive newer insertions
  for (let i = 0; i < 900; i++) {
    describeUserAgent(`${UA.fedoraFirefox} v${i}`);
    describeUserAgent(UA.macSafari);
  }
  assert.equal(describeUserAgent(UA.macSafari), b);
});
