// GET /api/v1/links/{id}/explain and POST /api/v1/links/{id}/rules/preview (docs/api.md §18):
// explain agrees with the real redirect over drawn visitors, records nothing, refuses bad
// parameters by name; the preview replays the stored clicks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { onEachEngine } from '../../support/harness.ts';
import { UA, clickRows, makeLink, visit } from '../redirect/redirect-support.ts';
import { QUERIES, REFERRERS, rulesArb } from '../../support/rule-arbitraries.ts';

const DEFAULT = 'https://example.com/default';
const ADDRESSES = ['8.8.8.8', '81.2.69.160', '85.214.0.1', '198.51.100.7', '203.0.113.9'];
const LANGUAGE_HEADERS = ['', 'de', 'fr, de;q=0.5', 'en-GB,en;q=0.8'];
const AGENTS = [UA.iphone, UA.android, UA.windows, UA.mac, UA.fedora, UA.ubuntu, UA.chromeos, UA.googlebot];

interface DrawnVisit {
  ua: string;
  language: string;
  referrer: string;
  ip: string;
  query: string;
  returning: boolean;
}

const visitArb: fc.Arbitrary<DrawnVisit> = fc.record({
  ua: fc.constantFrom(...AGENTS),
  language: fc.constantFrom(...LANGUAGE_HEADERS),
  referrer: fc.constantFrom('', ...REFERRERS.map((h) => `https://${h}/post/1`)),
  ip: fc.constantFrom(...ADDRESSES),
  query: fc.constantFrom(...QUERIES),
  returning: fc.boolean(),
});

onEachEngine(
  'api: rules explain and preview',
  (h) => {
    const explain = (key: string, id: number, params: Record<string, string>) =>
      h().request('GET', `/api/v1/links/${id}/explain?${new URLSearchParams(params).toString()}`, { key });

    test('explain and the real redirect agree on drawn rule lists and visitors (both sent the same visit)', async () => {
      const { key } = await h().account();
      // The clock and the click count move between the two requests: time, date and visits are
      // held to agreement by the core's property test (explain.test.ts), and splits draw at random.
      const lists = fc.sample(rulesArb({ time: false, visits: false, split: false }), { numRuns: 8, seed: 3401 });
      const visits = fc.sample(visitArb, { numRuns: 8 * 15, seed: 3402 });
      let matchedARule = 0;
      for (const [i, rules] of lists.entries()) {
        const link = await makeLink(h(), key, { url: DEFAULT, rules: JSON.stringify(rules) });
        for (const v of visits.slice(i * 15, i * 15 + 15)) {
          const params: Record<string, string> = {
            user_agent: v.ua,
            ip: v.ip,
            query: v.query,
            returning: v.returning ? '1' : '0',
          };
          if (v.language !== '') params.language = v.language;
          if (v.referrer !== '') params.referrer = v.referrer;
          const explained = await explain(key, link.id, params);
          assert.equal(explained.status, 200, explained.text);
          const headers: Record<string, string> = { 'user-agent': v.ua, 'x-forwarded-for': v.ip };
          if (v.language !== '') headers['accept-language'] = v.language;
          if (v.referrer !== '') headers.referer = v.referrer;
          if (v.returning) headers.cookie = `lp_v${link.id}=1`;
          const real = await visit(h(), `/${link.alias}${v.query === '' ? '' : `?${v.query}`}`, headers);
          assert.equal(real.status, 302);
          const e = explained.body.data;
          assert.equal(e.outcome, 'redirect');
          assert.equal(
            e.url,
            real.location,
            `rules ${JSON.stringify(rules)}, visit ${JSON.stringify(v)}, trace ${JSON.stringify(e.trace)}`,
          );
          if (e.rule !== null) matchedARule++;
        }
      }
      assert.ok(matchedARule > 0, 'some visits were decided by a rule');
    });

    test('the answer: outcome, url, rule, trace with values, pixels, counts_click; nothing recorded', async () => {
      const { key } = await h().account();
      const pixel = (
        await h().request('POST', '/api/v1/pixels', { key, form: { name: 'FB', type: 'facebook', value: '12345' } })
      ).body.data;
      const link = await makeLink(h(), key, {
        url: DEFAULT,
        pixels: [pixel.id],
        rules: JSON.stringify([
          { name: 'US iPhone', when: { country: ['US'], os: ['iOS'] }, url: 'https://a.example/' },
          { name: 'German', when: { language: ['de'] }, url: 'https://b.example/de' },
        ]),
      });
      const res = await explain(key, link.id, {
        country: 'us',
        user_agent: UA.windows,
        language: 'de',
        query: '?utm_source=newsletter',
        at: '2026-11-27T10:00:00Z',
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, {
        data: {
          outcome: 'pixels',
          url: 'https://b.example/de?utm_source=newsletter',
          rule: 1,
          variant: null,
          trace: [
            {
              rule: 0,
              name: 'US iPhone',
              matched: false,
              conditions: [
                { condition: 'country', matched: true, value: 'US' },
                { condition: 'os', matched: false, value: 'Windows' },
              ],
            },
            {
              rule: 1,
              name: 'German',
              matched: true,
              conditions: [{ condition: 'language', matched: true, value: ['de'] }],
            },
          ],
          pixels: [pixel.id],
          counts_click: true,
        },
        status: 200,
      });
      const bot = (await explain(key, link.id, { user_agent: UA.googlebot })).body.data;
      assert.deepEqual(
        [bot.outcome, bot.url, bot.rule, bot.pixels, bot.counts_click],
        ['redirect', DEFAULT, null, [], false],
      );
      assert.equal((await clickRows(h(), link.id)).length, 0, 'explain records no click');
      const locked = await makeLink(h(), key, { url: DEFAULT, password: 'secret' });
      assert.deepEqual(pickOf((await explain(key, locked.id, {})).body.data), {
        outcome: 'password',
        url: DEFAULT,
        counts_click: false,
      });
      const off = await makeLink(h(), key, { url: DEFAULT, disabled: 1 });
      assert.deepEqual(pickOf((await explain(key, off.id, {})).body.data), {
        outcome: 'disabled',
        url: null,
        counts_click: false,
      });
      const ended = await makeLink(h(), key, {
        url: DEFAULT,
        expiration_date: '2020-01-01',
        expiration_time: '00:00',
        expiration_url: 'https://ended.example/',
        rules: JSON.stringify([{ when: {}, url: 'https://ruled.example/' }]),
      });
      const expired = (await explain(key, ended.id, {})).body.data;
      assert.deepEqual(
        pickOf(expired),
        { outcome: 'expired', url: 'https://ended.example/', counts_click: false },
        'expiry acts whatever rule would decide',
      );
      assert.equal((await visit(h(), `/${ended.alias}`)).location, 'https://ended.example/', 'as the redirect does');
    });

    test('a bad parameter is a 422 naming it; another account’s link is a 404', async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, { url: DEFAULT });
      for (const [name, value] of [
        ['country', 'USA'],
        ['country', '1A'],
        ['ip', '999.1.1.1'],
        ['at', '2026-11-27'],
        ['at', 'yesterday'],
        ['returning', '2'],
        ['referrer', 'not a url'],
        ['user_agent', 'x'.repeat(1025)],
      ] as const) {
        const res = await explain(key, link.id, { [name]: value });
        assert.equal(res.status, 422, `${name}=${value}: ${res.text}`);
        assert.deepEqual(Object.keys(res.body.message), [name]);
      }
      const other = await h().account();
      assert.equal((await explain(other.key, link.id, {})).status, 404);
      assert.equal(
        (await h().request('POST', `/api/v1/links/${link.id}/rules/preview`, { key: other.key, json: { rules: [] } }))
          .status,
        404,
      );
    });

    test('preview replays the stored clicks through the draft and the current rules', async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, {
        url: DEFAULT,
        rules: JSON.stringify([{ when: { country: ['US'] }, url: 'https://us.example/' }]),
      });
      const path = `/${link.alias}`;
      const sent: Array<Record<string, string>> = [
        { 'x-forwarded-for': '8.8.8.8', 'user-agent': UA.iphone },
        { 'x-forwarded-for': '8.8.8.8', 'user-agent': UA.windows },
        { 'x-forwarded-for': '8.8.8.8', 'user-agent': UA.windows },
        { 'x-forwarded-for': '81.2.69.160', 'user-agent': UA.iphone, 'accept-language': 'de' },
        { 'x-forwarded-for': '85.214.0.1', 'user-agent': UA.android, 'accept-language': 'de' },
        { 'x-forwarded-for': '85.214.0.1', 'user-agent': UA.googlebot },
      ];
      for (const headers of sent) assert.equal((await visit(h(), path, headers)).status, 302);
      await clickRows(h(), link.id);
      const draft = [
        { name: 'iPhone', when: { os: ['iOS'] }, url: 'https://ios.example/' },
        { when: { language: ['de'], not: { ip: ['10.0.0.0/8'] } }, url: 'https://de.example/' },
        { when: { query: { utm_source: '*' } }, url: 'https://never.example/' },
      ];
      const res = await h().request('POST', `/api/v1/links/${link.id}/rules/preview`, {
        key,
        json: { rules: draft, days: 30 },
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, {
        data: {
          clicks: 5,
          current: [
            { url: 'https://us.example/', rule: 0, clicks: 3 },
            { url: DEFAULT, rule: null, clicks: 2 },
          ],
          draft: [
            { url: 'https://ios.example/', rule: 0, clicks: 2 },
            { url: DEFAULT, rule: null, clicks: 2 },
            { url: 'https://de.example/', rule: 1, clicks: 1 },
          ],
          changed: 5,
          unknown: ['query', 'ip'],
          days: 30,
          since: null,
        },
        status: 200,
      });
      const bad = await h().request('POST', `/api/v1/links/${link.id}/rules/preview`, {
        key,
        json: { rules: [{ when: { country: ['XX1'] }, url: 'https://a.example/' }], days: 0 },
      });
      assert.equal(bad.status, 422, bad.text);
      assert.deepEqual(Object.keys(bad.body.message).sort(), ['days']);
      const badRule = await h().request('POST', `/api/v1/links/${link.id}/rules/preview`, {
        key,
        json: { rules: [{ when: { country: ['XX1'] }, url: 'https://a.example/' }] },
      });
      assert.equal(badRule.status, 422, badRule.text);
      assert.deepEqual(Object.keys(badRule.body.message), ['rules.0.when.country.0']);
    });
  },
  { env: { TRUST_PROXY: 'true' } },
);

const pickOf = (d: { outcome: string; url: string | null; counts_click: boolean }) => ({
  outcome: d.outcome,
  url: d.url,
  counts_click: d.counts_click,
});
