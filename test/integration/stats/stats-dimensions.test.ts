import { test } from 'node:test';
import assert from 'node:assert/strict';
// Ajv comes with Fastify; here it checks answers against the served OpenAPI document.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { onEachEngine } from '../../support/harness.ts';
import { IP, ManualClock, UA, clicksOf, createLink, pairs, stats, visit } from './stats-support.ts';

const clock = new ManualClock();
const DAY = { from: '2026-03-10', to: '2026-03-10' };

onEachEngine(
  'statistics: every dimension from real clicks',
  (h) => {
    let key: string;
    let link: { id: number; alias: string };

    test('clicks through the redirect, one bot', async () => {
      ({ key } = await h().account());
      link = await createLink(h(), key);
      clock.set('2026-03-10T12:34:00Z');
      await visit(h(), link, {
        ip: IP.us,
        ua: UA.windowsChrome,
        language: 'fr-FR,fr;q=0.9,en;q=0.5',
        referer: 'https://news.example.com/a?b=1',
      });
      await visit(h(), link, { ip: IP.gb, ua: UA.iphone, language: 'en-GB,en;q=0.8', referer: 'https://t.co/xyz' });
      await visit(h(), link, { ip: IP.gb, ua: UA.iphone, language: 'en-GB,en;q=0.8', referer: 'https://t.co/abc' });
      clock.set('2026-03-10T13:05:00Z');
      await visit(h(), link, { ip: IP.us, ua: UA.macFirefox });
      await visit(h(), link, { ip: IP.us, ua: UA.googlebot, referer: 'https://www.google.com/' });
      assert.equal(await clicksOf(h(), key, link.id), 4, 'the bot is not a click');
    });

    test('clicks: per day', async () => {
      assert.deepEqual(await pairs(h(), key, link.id, { name: 'clicks', ...DAY }), [['2026-03-10', 4]]);
    });

    test('clicks_hours: every hour of the day, 00 to 23', async () => {
      const hours = await pairs(h(), key, link.id, { name: 'clicks_hours', ...DAY, per_page: 30 });
      assert.equal(hours.length, 24);
      assert.deepEqual(
        hours.map(([v]) => v),
        Array.from({ length: 24 }, (_, i) => String(i).padStart(2, '0')),
      );
      assert.deepEqual(
        hours.filter(([, c]) => c > 0),
        [
          ['12', 3],
          ['13', 1],
        ],
      );
    });

    test('country, from the forwarded address', async () => {
      assert.deepEqual(await pairs(h(), key, link.id, { name: 'country', ...DAY }), [
        ['GB', 2],
        ['US', 2],
      ]);
    });

    test('cities: not known with the bundled country database', async () => {
      assert.deepEqual(await pairs(h(), key, link.id, { name: 'cities', ...DAY }), [[null, 4]]);
    });

    test('browser, platform, device', async () => {
      assert.deepEqual(await pairs(h(), key, link.id, { name: 'browser', ...DAY }), [
        ['Mobile Safari', 2],
        ['Chrome', 1],
        ['Firefox', 1],
      ]);
      assert.deepEqual(await pairs(h(), key, link.id, { name: 'platform', ...DAY }), [
        ['iOS', 2],
        ['OS X', 1],
        ['Windows', 1],
      ]);
      assert.deepEqual(await pairs(h(), key, link.id, { name: 'device', ...DAY }), [
        ['desktop', 2],
        ['mobile', 2],
      ]);
    });

    test('language: the first of Accept-Language; none is null', async () => {
      assert.deepEqual(await pairs(h(), key, link.id, { name: 'language', ...DAY }), [
        ['en', 2],
        [null, 1],
        ['fr', 1],
      ]);
    });

    test('referrer: the host only; none is null', async () => {
      assert.deepEqual(await pairs(h(), key, link.id, { name: 'referrer', ...DAY }), [
        ['t.co', 2],
        [null, 1],
        ['news.example.com', 1],
      ]);
    });

    test('the envelope: list shape plus the range numbers; bots apart, unique visitors', async () => {
      const res = await stats(h(), key, link.id, { name: 'country', ...DAY });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(res.body.stats, {
        name: 'country',
        from: '2026-03-10',
        to: '2026-03-10',
        timezone: 'UTC',
        total: 4,
        unique: 3,
        bots: 1,
      });
      assert.equal(res.body.status, 200);
      assert.deepEqual(Object.keys(res.body).sort(), ['data', 'links', 'meta', 'stats', 'status']);
      assert.equal(res.body.meta.total, 2);
      assert.equal(res.body.meta.per_page, 10);
      assert.equal(res.body.meta.current_page, 1);
      assert.match(res.body.links.first, /^http:\/\/short\.test\/api\/v1\/stats\/\d+\?.*name=country.*page=1/);
      assert.equal(res.body.links.next, null);
    });

    test("the link's clicks and the all-time total agree", async () => {
      const all = await stats(h(), key, link.id, { name: 'clicks', from: '2020-01-01', to: '2029-12-31' });
      assert.equal(all.status, 200, all.text);
      assert.equal(all.body.stats.total, await clicksOf(h(), key, link.id));
      assert.equal(
        all.body.data.reduce((s: number, e: { count: number }) => s + e.count, 0),
        0,
        'page 1 is January 2020',
      );
    });

    test('search (case-insensitive substring), sort max|min, paging', async () => {
      assert.deepEqual(await pairs(h(), key, link.id, { name: 'browser', ...DAY, search: 'FIRE' }), [['Firefox', 1]]);
      assert.deepEqual(await pairs(h(), key, link.id, { name: 'browser', ...DAY, sort: 'min' }), [
        ['Chrome', 1],
        ['Firefox', 1],
        ['Mobile Safari', 2],
      ]);
      assert.deepEqual(await pairs(h(), key, link.id, { name: 'referrer', ...DAY, search: '%' }), []);
      assert.deepEqual(
        await pairs(h(), key, link.id, { name: 'clicks_hours', ...DAY, search: '2', sort: 'max', per_page: 10 }),
        [
          ['12', 3],
          ['02', 0],
          ['20', 0],
          ['21', 0],
          ['22', 0],
          ['23', 0],
        ],
      );
      const month = await stats(h(), key, link.id, {
        name: 'clicks',
        from: '2026-03-01',
        to: '2026-03-31',
        per_page: 10,
        page: 2,
      });
      assert.equal(month.status, 200);
      assert.equal(month.body.meta.total, 31);
      assert.equal(month.body.meta.last_page, 4);
      assert.deepEqual(
        month.body.data.map((e: { value: string }) => e.value),
        [
          '2026-03-11',
          '2026-03-12',
          '2026-03-13',
          '2026-03-14',
          '2026-03-15',
          '2026-03-16',
          '2026-03-17',
          '2026-03-18',
          '2026-03-19',
          '2026-03-20',
        ],
      );
      const busiest = await pairs(h(), key, link.id, {
        name: 'clicks',
        from: '2026-03-01',
        to: '2026-03-31',
        sort: 'max',
      });
      assert.deepEqual(busiest[0], ['2026-03-10', 4]);
      const past = await stats(h(), key, link.id, { name: 'country', ...DAY, page: 5 });
      assert.equal(past.status, 200);
      assert.deepEqual(past.body.data, []);
      assert.equal(past.body.meta.total, 2);
    });

    test('answers match the OpenAPI document', async () => {
      const doc = (await h().request('GET', '/api/openapi.json')).body;
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      ajv.addSchema({ ...doc, $id: 'openapi.json' });
      const check = async (query: Record<string, string>, status: number) => {
        const res = await stats(h(), key, link.id, query);
        assert.equal(res.status, status, res.text);
        const validate = ajv.getSchema(
          `openapi.json#/paths/~1api~1v1~1stats~1{id}/get/responses/${status}/content/application~1json/schema`,
        );
        assert.ok(validate, `documented ${status}`);
        assert.ok(validate(res.body), `${ajv.errorsText(validate.errors)}\n${res.text}`);
      };
      await check({ name: 'clicks' }, 200);
      await check({ name: 'language', from: '2026-03-10', to: '2026-03-10' }, 200);
      await check({ name: 'nope' }, 422);
      const csv = doc.paths['/api/v1/stats/{id}'].get.responses['200'].content['text/csv'];
      assert.ok(csv, 'the CSV answer is documented');
    });
  },
  { env: { TRUST_PROXY: 'true' }, overrides: { clock } },
);
