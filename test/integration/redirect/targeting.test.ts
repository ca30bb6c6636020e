// api.md §7 step 5: country, platform and language targeting, and only the chosen list acts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { UA, clickRows, makeLink, redirectsTo } from './redirect-support.ts';

const US = 'https://us.example.com/';
const GB = 'https://gb.example.com/';
const DEFAULT = 'https://example.com/default';

const PLATFORM_UA: Array<[string, string]> = [
  ['iOS', UA.iphone],
  ['Android', UA.android],
  ['Windows', UA.windows],
  ['OS X', UA.mac],
  ['Linux', UA.fedora],
  ['Ubuntu', UA.ubuntu],
  ['Chrome OS', UA.chromeos],
];
const platformUrl = (p: string) => `https://${p.toLowerCase().replace(/ /g, '-')}.example.com/`;

onEachEngine(
  'redirect: targeting',
  (h) => {
    test('country: the client address picks the entry; an address with no entry goes to url', async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, {
        url: DEFAULT,
        target_type: 1,
        country: [
          { key: 'US', value: US },
          { key: 'GB', value: GB },
        ],
      });
      const from = (ip: string) => redirectsTo(h(), `/${link.alias}`, { 'x-forwarded-for': ip });
      assert.equal(await from('8.8.8.8'), US);
      assert.equal(await from('81.2.69.160'), GB);
      assert.equal(await from('192.0.2.1'), DEFAULT, 'TEST-NET-1 has no country');
      assert.equal(await from('10.1.2.3'), DEFAULT, 'a private address has no country');
      assert.equal(await redirectsTo(h(), `/${link.alias}`), DEFAULT, 'the loopback peer has no country');
      // The left-most address is the client's when every hop is trusted.
      assert.equal(await from('81.2.69.160, 8.8.8.8'), GB);
      const rows = await clickRows(h(), link.id);
      assert.deepEqual(
        rows.map((r) => r.country),
        ['US', 'GB', null, null, null, 'GB'],
      );
    });

    test('platform: each of the seven platforms reaches its own entry', async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, {
        url: DEFAULT,
        target_type: 2,
        platform: PLATFORM_UA.map(([p]) => ({ key: p, value: platformUrl(p) })),
      });
      for (const [platform, ua] of PLATFORM_UA) {
        assert.equal(await redirectsTo(h(), `/${link.alias}`, { 'user-agent': ua }), platformUrl(platform), platform);
      }
      // An operating system outside the seven goes to url.
      const playstation =
        'Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.0 Safari/605.1.15';
      assert.equal(await redirectsTo(h(), `/${link.alias}`, { 'user-agent': playstation }), DEFAULT);
      const rows = await clickRows(h(), link.id);
      assert.deepEqual(
        rows.slice(0, 7).map((r) => r.platform),
        PLATFORM_UA.map(([p]) => p),
      );
    });

    test('platform: an Ubuntu visitor takes a Linux entry when there is no Ubuntu one', async () => {
      const { key } = await h().account();
      const linuxOnly = await makeLink(h(), key, {
        url: DEFAULT,
        target_type: 2,
        platform: [{ key: 'Linux', value: 'https://linux.example.com/' }],
      });
      const visitAs = (alias: string, ua: string) => redirectsTo(h(), `/${alias}`, { 'user-agent': ua });
      assert.equal(await visitAs(linuxOnly.alias, UA.ubuntu), 'https://linux.example.com/');
      assert.equal(await visitAs(linuxOnly.alias, UA.fedora), 'https://linux.example.com/');
      // Android and Chrome OS run a Linux kernel, but a Linux entry means desktop Linux.
      assert.equal(await visitAs(linuxOnly.alias, UA.android), DEFAULT);
      assert.equal(await visitAs(linuxOnly.alias, UA.chromeos), DEFAULT);

      const ubuntuOnly = await makeLink(h(), key, {
        url: DEFAULT,
        target_type: 2,
        platform: [{ key: 'Ubuntu', value: 'https://ubuntu.example.com/' }],
      });
      assert.equal(await visitAs(ubuntuOnly.alias, UA.ubuntu), 'https://ubuntu.example.com/');
      // The fallback goes one way only: Ubuntu entries are not for every Linux.
      assert.equal(await visitAs(ubuntuOnly.alias, UA.fedora), DEFAULT);
      assert.equal(await visitAs(ubuntuOnly.alias, UA.windows), DEFAULT);
    });

    test('language: the highest-weighted language that has an entry', async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, {
        url: DEFAULT,
        target_type: 3,
        language: [
          { key: 'en', value: 'https://en.example.com/' },
          { key: 'de', value: 'https://de.example.com/' },
          { key: 'fr', value: 'https://fr.example.com/' },
        ],
      });
      const cases: Array<[string | null, string]> = [
        ['de', 'https://de.example.com/'],
        ['fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', 'https://fr.example.com/'],
        // Weights, not order, decide; a language without an entry (it) is skipped.
        ['de;q=0.3, en;q=0.9, it', 'https://en.example.com/'],
        ['en-US;q=0.2, de-AT;q=0.5', 'https://de.example.com/'],
        // q=0 means "not this one".
        ['fr;q=0, de;q=0.1', 'https://de.example.com/'],
        ['ja, it;q=0.5, *;q=0.1', DEFAULT],
        ['', DEFAULT],
        [null, DEFAULT],
      ];
      for (const [header, expected] of cases) {
        const headers: Record<string, string> = header === null ? {} : { 'accept-language': header };
        assert.equal(await redirectsTo(h(), `/${link.alias}`, headers), expected, String(header));
      }
      const rows = await clickRows(h(), link.id);
      assert.deepEqual(
        rows.map((r) => r.language),
        ['de', 'fr', 'it', 'de', 'de', 'ja', null, null],
      );
    });

    test('only the list chosen by target_type acts', async () => {
      const { key } = await h().account();
      const lists = {
        url: DEFAULT,
        country: [{ key: 'US', value: US }],
        platform: [{ key: 'Windows', value: 'https://windows.example.com/' }],
        language: [{ key: 'de', value: 'https://de.example.com/' }],
        rotation: [{ value: 'https://r1.example.com/' }, { value: 'https://r2.example.com/' }],
      };
      const visitor = { 'x-forwarded-for': '8.8.8.8', 'user-agent': UA.windows, 'accept-language': 'de' };
      const expected: Record<number, string[]> = {
        0: [DEFAULT, DEFAULT],
        1: [US, US],
        2: ['https://windows.example.com/', 'https://windows.example.com/'],
        3: ['https://de.example.com/', 'https://de.example.com/'],
      };
      for (const [type, urls] of Object.entries(expected)) {
        const link = await makeLink(h(), key, { ...lists, target_type: Number(type) });
        for (const url of urls)
          assert.equal(await redirectsTo(h(), `/${link.alias}`, visitor), url, `target_type ${type}`);
      }
      const rotating = await makeLink(h(), key, { ...lists, target_type: 4 });
      const seen = new Set([
        await redirectsTo(h(), `/${rotating.alias}`, visitor),
        await redirectsTo(h(), `/${rotating.alias}`, visitor),
      ]);
      assert.deepEqual([...seen].sort(), ['https://r1.example.com/', 'https://r2.example.com/']);

      // Switching target_type through the API switches the list that acts, at once.
      const link = await makeLink(h(), key, { ...lists, target_type: 1 });
      assert.equal(await redirectsTo(h(), `/${link.alias}`, visitor), US);
      const put = await h().request('PUT', `/api/v1/links/${link.id}`, { key, form: { target_type: 3 } });
      assert.equal(put.status, 200, put.text);
      assert.equal(await redirectsTo(h(), `/${link.alias}`, visitor), 'https://de.example.com/');
    });
  },
  { env: { TRUST_PROXY: 'true' } },
);

onEachEngine('redirect: country without a trusted proxy', (h) => {
  test('X-Forwarded-For is ignored unless the operator trusts a proxy', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { url: DEFAULT, target_type: 1, country: [{ key: 'US', value: US }] });
    assert.equal(await redirectsTo(h(), `/${link.alias}`, { 'x-forwarded-for': '8.8.8.8' }), DEFAULT);
    assert.deepEqual(
      (await clickRows(h(), link.id)).map((r) => r.country),
      [null],
    );
  });
});
