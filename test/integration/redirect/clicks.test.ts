// api.md §7 step 8: which visits count, what a click records, and what it never records.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { UA, clickCounts, clickRows, makeLink, readLink, redirectsTo, unique, visit } from './redirect-support.ts';

const CLICK_COLUMNS = [
  'account_id',
  'at',
  'browser',
  'city',
  'country',
  'device',
  'id',
  'is_bot',
  'language',
  'link_id',
  'platform',
  'referrer_host',
];

async function makePixel(h: Parameters<typeof makeLink>[0], key: string) {
  const res = await h.request('POST', '/api/v1/pixels', {
    key,
    form: { name: unique('px'), type: 'facebook', value: '1234567890' },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

onEachEngine(
  'redirect: clicks',
  (h) => {
    test('one click per human visit, and the API counter equals the human rows', async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, { url: 'https://example.com/counted' });
      for (let i = 0; i < 3; i++) assert.equal(await redirectsTo(h(), `/${link.alias}`), 'https://example.com/counted');
      await Promise.all(
        Array.from({ length: 7 }, () => redirectsTo(h(), `/${link.alias}`, { 'user-agent': UA.iphone })),
      );
      assert.deepEqual(await clickCounts(h(), link.id), { human: 10, bot: 0 });
      assert.equal((await readLink(h(), key, link.id)).clicks, 10);
    });

    test('HEAD is answered like GET but never counted', async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, { url: 'https://example.com/head' });
      for (let i = 0; i < 3; i++) {
        const res = await visit(h(), `/${link.alias}?utm_medium=head`, {}, 'HEAD');
        assert.equal(res.status, 302);
        assert.equal(res.location, 'https://example.com/head?utm_medium=head');
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.equal(res.text, '');
      }
      assert.deepEqual(await clickCounts(h(), link.id), { human: 0, bot: 0 });
      assert.equal((await readLink(h(), key, link.id)).clicks, 0);
    });

    test('bots are redirected without pixels and recorded apart, not in clicks', async () => {
      const { key } = await h().account();
      const pixel = await makePixel(h(), key);
      const link = await makeLink(h(), key, { url: 'https://example.com/botted', pixels: [pixel.id] });
      // A person meets the consent page (PIXEL_CONSENT defaults to ask): pixels are in play.
      const human = await visit(h(), `/${link.alias}`);
      assert.equal(human.status, 200);
      for (const ua of [UA.googlebot, UA.curl, '']) {
        const res = await visit(h(), `/${link.alias}`, { 'user-agent': ua });
        assert.equal(res.status, 302, `${ua || 'no User-Agent'}: ${res.status}`);
        assert.equal(res.location, 'https://example.com/botted');
        assert.doesNotMatch(res.text, /facebook|fbq/i);
      }
      const rows = await clickRows(h(), link.id);
      assert.deepEqual(
        rows.map((r) => Number(r.is_bot)),
        [1, 1, 1],
        'the consent page is no visit; each bot is one bot row',
      );
      assert.equal((await readLink(h(), key, link.id)).clicks, 0);
    });

    test('a mix of people and bots: clicks counts the people only', async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, { url: 'https://example.com/mix' });
      const uas = [UA.windows, UA.googlebot, UA.android, UA.curl, UA.mac, UA.googlebot, UA.fedora];
      await Promise.all(uas.map((ua) => redirectsTo(h(), `/${link.alias}`, { 'user-agent': ua })));
      assert.deepEqual(await clickCounts(h(), link.id), { human: 4, bot: 3 });
      assert.equal((await readLink(h(), key, link.id)).clicks, 4);
      const stats = await h().request('GET', `/api/v1/links?per_page=100&sort=max`, { key });
      assert.equal(stats.body.data.find((l: { id: number }) => l.id === link.id).clicks, 4);
    });

    test('a click records country, browser, platform, device, language and referrer host, not the address', async () => {
      const { id: accountId, key } = await h().account();
      const link = await makeLink(h(), key, { url: 'https://example.com/recorded' });
      const before = Date.now();
      await redirectsTo(h(), `/${link.alias}`, {
        'x-forwarded-for': '81.2.69.160',
        'user-agent': UA.iphone,
        'accept-language': 'fr-CH, fr;q=0.9, en;q=0.5',
        referer: 'https://News.Example.org/article?id=7#c',
      });
      await redirectsTo(h(), `/${link.alias}`, { 'x-forwarded-for': '8.8.8.8', 'user-agent': UA.windows });
      const rows = await clickRows(h(), link.id);
      assert.equal(rows.length, 2);
      const [phone, desktop] = rows.map((r) => ({
        ...r,
        at: Number(r.at),
        is_bot: Number(r.is_bot),
        qr: Number(r.qr),
        id: Number(r.id),
        link_id: Number(r.link_id),
        account_id: Number(r.account_id),
      }));
      const columns = Object.keys(rows[0]!);
      for (const column of CLICK_COLUMNS) assert.ok(columns.includes(column), `no ${column} column`);
      assert.deepEqual(
        columns.filter((c) => /(^|_)ip($|_)|addr|remote|client/i.test(c)),
        [],
        'a column for the address exists',
      );
      assert.ok(phone!.at >= before - 1000 && phone!.at <= Date.now() + 1000, `at ${phone!.at}`);
      assert.deepEqual(
        { ...phone, id: 0, at: 0 },
        {
          id: 0,
          at: 0,
          link_id: link.id,
          account_id: accountId,
          country: 'GB',
          city: null,
          browser: 'Mobile Safari',
          platform: 'iOS',
          device: 'mobile',
          language: 'fr',
          referrer_host: 'news.example.org',
          is_bot: 0,
          // No rule decided: the link has none (the conversions' results count by these).
          rule: null,
          variant: null,
          // Not through a QR code: the short URL carried no `qr=1`.
          qr: 0,
        },
      );
      assert.deepEqual(
        [
          desktop!.country,
          desktop!.browser,
          desktop!.platform,
          desktop!.device,
          desktop!.language,
          desktop!.referrer_host,
        ],
        ['US', 'Chrome', 'Windows', 'desktop', null, null],
      );
      const everything = JSON.stringify(rows);
      assert.ok(!everything.includes('81.2.69.160') && !everything.includes('8.8.8.8'), 'an address was stored');
    });

    test('visits that go nowhere count nothing: unknown alias, preview, disabled', async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, { url: 'https://example.com/none' });
      await visit(h(), `/${link.alias}/+`);
      await visit(h(), `/${link.alias}x`);
      const off = await makeLink(h(), key, { url: 'https://example.com/none', disabled: 1 });
      await visit(h(), `/${off.alias}`);
      await h().server.container.visits.sink.flush();
      const all = await h()
        .server.container.storage.db.selectFrom('clicks')
        .select('id')
        .where('link_id', 'in', [link.id, off.id])
        .execute();
      assert.equal(all.length, 0);
    });
  },
  { env: { TRUST_PROXY: 'true' } },
);
