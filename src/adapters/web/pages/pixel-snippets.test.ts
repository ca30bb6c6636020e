import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Script } from 'node:vm';
import { PIXEL_TYPES, type PixelType } from '../../../core/pixels/pixel.ts';
import { jsString } from '../../shared/html/html.ts';
import { PIXEL_HOSTS, PIXEL_SNIPPETS, pixelCspSources } from './pixel-snippets.ts';
import { NONCE, assertNoInjection, inlineScripts } from './test-support.ts';

const VALUES: Record<PixelType, string> = {
  adroll: 'ADV4ABCDEF-PIX5GHIJKL',
  bing: '187000123',
  facebook: '1234567890123456',
  'google-ads': 'AW-987654321',
  'google-analytics': 'G-ABCDE12345',
  'google-tag-manager': 'GTM-K9X2ZQ',
  linkedin: '5551234',
  pinterest: '2612345678901',
  quora: 'a1b2c3d4e5f6_x',
  twitter: 'o1abc',
};

/** Does a CSP source like https://*.example.com allow this URL? */
function allowed(url: string, sources: readonly string[]): boolean {
  const { protocol, host } = new URL(url);
  return sources.some((s) => {
    const [scheme, pattern = ''] = s.split('://');
    if (`${scheme}:` !== protocol) return false;
    return pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern;
  });
}

for (const type of PIXEL_TYPES) {
  test(`${type}: loads from its vendor host with the value via jsString and the nonce`, () => {
    const value = VALUES[type];
    const out = PIXEL_SNIPPETS[type](value, NONCE);
    assert.ok(out.includes(jsString(value)), 'value not passed through jsString');
    assertNoInjection(out);
    const scripts = inlineScripts(out);
    assert.ok(scripts.length >= 1);
    for (const body of scripts) new Script(body); // parses

    const hosts = PIXEL_HOSTS[type];
    const loaded = scripts.flatMap((b) => [...b.matchAll(/'(https:\/\/[^']+)'/g)].map((m) => m[1] ?? ''));
    assert.ok(loaded.length >= 1, 'no vendor script URL');
    for (const url of loaded) assert.ok(allowed(url, hosts.script), `${url} not in script-src`);
    for (const m of out.matchAll(/<img src="([^"]+)"/g))
      assert.ok(allowed(m[1] ?? '', hosts.img), `${m[1]} not in img-src`);
    for (const m of out.matchAll(/<iframe src="([^"]+)"/g))
      assert.ok(allowed(m[1] ?? '', hosts.frame), `${m[1]} not in frame-src`);
  });
}

test('a value outside the stored alphabet still cannot leave its string or attribute', () => {
  const hostile = `</script><script>alert(1)</script>'"\u2028`;
  for (const type of PIXEL_TYPES) {
    const out = PIXEL_SNIPPETS[type](hostile, NONCE);
    assertNoInjection(out);
    for (const body of inlineScripts(out)) new Script(body);
  }
});

test('hosts are bare https origins (no path, quote or separator that could bend the CSP)', () => {
  for (const type of PIXEL_TYPES) {
    const hosts = PIXEL_HOSTS[type];
    assert.ok(hosts.script.length > 0, type);
    for (const h of [...hosts.script, ...hosts.img, ...hosts.connect, ...hosts.frame]) {
      assert.match(h, /^https:\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)+$/, `${type}: ${h}`);
    }
  }
});

test('pixelCspSources unions and de-duplicates hosts', () => {
  const s = pixelCspSources(['google-ads', 'google-tag-manager']);
  assert.equal(s.script.filter((h) => h === 'https://www.googletagmanager.com').length, 1);
  assert.deepEqual(pixelCspSources([]), { script: [], img: [], connect: [], frame: [] });
});
