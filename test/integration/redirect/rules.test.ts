// A link's rules at visit time (docs/api.md, Rules): conditions combined, splits with a sticky
// cookie, returning visitors; caps and passwords behave as without rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { UA, clickRows, makeLink, redirectsTo, visit } from './redirect-support.ts';

const DEFAULT = 'https://example.com/default';
const rules = (list: unknown[]) => JSON.stringify(list);

onEachEngine(
  'redirect: rules',
  (h) => {
    test('the first rule whose conditions all hold decides; none: url', async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, {
        url: DEFAULT,
        rules: rules([
          { when: { country: ['US'], os: ['iOS'] }, url: 'https://us-iphone.example/' },
          { when: { language: ['de'], not: { country: ['US'] } }, url: 'https://de.example/' },
          { when: { query: { utm_source: 'newsletter' } }, url: 'https://news.example/' },
          { when: { referrer: ['social.example'], browser: ['Firefox'] }, url: 'https://social.example/' },
          { when: { ip: ['198.51.100.0/24'] }, url: 'https://office.example/' },
        ]),
      });
      const path = `/${link.alias}`;
      assert.equal(
        await redirectsTo(h(), path, { 'x-forwarded-for': '8.8.8.8', 'user-agent': UA.iphone }),
        'https://us-iphone.example/',
      );
      assert.equal(
        await redirectsTo(h(), path, {
          'x-forwarded-for': '8.8.8.8',
          'user-agent': UA.android,
          'accept-language': 'de',
        }),
        DEFAULT,
        'US: not German',
      );
      assert.equal(
        await redirectsTo(h(), path, { 'x-forwarded-for': '81.2.69.160', 'accept-language': 'fr, de;q=0.5' }),
        'https://de.example/',
      );
      assert.equal(
        await redirectsTo(h(), `${path}?utm_source=newsletter`),
        'https://news.example/?utm_source=newsletter',
        'the query is still merged',
      );
      assert.equal(
        await redirectsTo(h(), path, { 'user-agent': UA.fedora, referer: 'https://m.social.example/post/1' }),
        'https://social.example/',
      );
      assert.equal(
        await redirectsTo(h(), path, { 'user-agent': UA.windows, referer: 'https://m.social.example/post/1' }),
        DEFAULT,
        'Chrome, not Firefox',
      );
      assert.equal(await redirectsTo(h(), path, { 'x-forwarded-for': '198.51.100.20' }), 'https://office.example/');
      const rows = await clickRows(h(), link.id);
      assert.equal(rows.length, 7, 'every visit counted, whichever rule decided');
    });

    test('a split keeps each visitor on their variant through its cookie; new visitors are shared', async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, {
        url: DEFAULT,
        rules: rules([
          {
            when: {},
            split: [
              { url: 'https://x.example/', weight: 50 },
              { url: 'https://y.example/', weight: 50 },
            ],
          },
        ]),
      });
      const path = `/${link.alias}`;
      const seen = new Set<string>();
      for (let i = 0; i < 40; i++) {
        const first = await visit(h(), path);
        assert.equal(first.status, 302);
        const setCookie = ([] as string[]).concat(first.headers['set-cookie'] ?? []);
        assert.equal(setCookie.length, 1);
        assert.match(
          setCookie[0]!,
          new RegExp(`^lp_v${link.id}=[^;]+; Max-Age=2592000; Path=/; HttpOnly; SameSite=Lax$`),
        );
        const cookie = setCookie[0]!.split(';')[0]!;
        seen.add(first.location!);
        for (let j = 0; j < 3; j++) {
          const again = await visit(h(), path, { cookie });
          assert.equal(again.location, first.location, 'sticky');
          assert.equal(again.headers['set-cookie'], undefined, 'nothing new to remember');
        }
      }
      assert.deepEqual(
        [...seen].sort(),
        ['https://x.example/', 'https://y.example/'],
        'both variants drawn over 40 visitors',
      );
      // HEAD and bots draw but are not remembered.
      assert.equal((await visit(h(), path, {}, 'HEAD')).headers['set-cookie'], undefined);
      assert.equal((await visit(h(), path, { 'user-agent': UA.googlebot })).headers['set-cookie'], undefined);
    });

    test('returning: the first visit is told apart from the next ones', async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, {
        url: DEFAULT,
        rules: rules([{ when: { returning: true }, url: 'https://welcome-back.example/' }]),
      });
      const first = await visit(h(), `/${link.alias}`);
      assert.equal(first.location, DEFAULT);
      const cookie = ([] as string[]).concat(first.headers['set-cookie'] ?? [])[0]!.split(';')[0]!;
      assert.equal(await redirectsTo(h(), `/${link.alias}`, { cookie }), 'https://welcome-back.example/');
    });

    test('a link whose rules remember nobody sets no cookie; caps and passwords act whatever rule decides', async () => {
      const { key } = await h().account();
      const capped = await makeLink(h(), key, {
        url: DEFAULT,
        expiration_clicks: 2,
        rules: rules([{ when: { device: ['desktop'] }, url: 'https://desk.example/' }]),
      });
      const a = await visit(h(), `/${capped.alias}`);
      assert.equal(a.location, 'https://desk.example/');
      assert.equal(a.headers['set-cookie'], undefined);
      assert.equal((await visit(h(), `/${capped.alias}`)).location, 'https://desk.example/');
      assert.equal((await visit(h(), `/${capped.alias}`)).status, 410, 'the cap is exact');
      const locked = await makeLink(h(), key, {
        url: DEFAULT,
        password: 'secret',
        rules: rules([{ when: {}, url: 'https://ruled.example/' }]),
      });
      const page = await visit(h(), `/${locked.alias}`);
      assert.equal(page.status, 200);
      assert.match(page.text, /password/i);
    });

    test('an edit reaches the next visit (the cache entry and its compiled rules are dropped)', async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, {
        url: DEFAULT,
        rules: rules([{ when: {}, url: 'https://one.example/' }]),
      });
      assert.equal(await redirectsTo(h(), `/${link.alias}`), 'https://one.example/');
      const res = await h().request('PUT', `/api/v1/links/${link.id}`, {
        key,
        json: { rules: [{ when: {}, url: 'https://two.example/' }] },
      });
      assert.equal(res.status, 200);
      assert.equal(await redirectsTo(h(), `/${link.alias}`), 'https://two.example/');
      const cleared = await h().request('PUT', `/api/v1/links/${link.id}`, { key, json: { rules: null } });
      assert.equal(cleared.status, 200, cleared.text);
      assert.equal(await redirectsTo(h(), `/${link.alias}`), DEFAULT);
    });
  },
  { env: { TRUST_PROXY: 'true' } },
);

// Without TRUST_PROXY an ip rule reads the connection's address: a forged X-Forwarded-For moves nothing.
onEachEngine('redirect: ip rules without TRUST_PROXY', (h) => {
  test('X-Forwarded-For is not read; the socket address is', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, {
      url: DEFAULT,
      rules: rules([
        { when: { ip: ['198.51.100.0/24'] }, url: 'https://forged.example/' },
        { when: { ip: ['127.0.0.0/8', '::1/128'] }, url: 'https://loopback.example/' },
      ]),
    });
    assert.equal(
      await redirectsTo(h(), `/${link.alias}`, { 'x-forwarded-for': '198.51.100.20' }),
      'https://loopback.example/',
    );
    const explained = await h().request('GET', `/api/v1/links/${link.id}/explain?ip=198.51.100.20`, { key });
    assert.equal(explained.body.data.url, 'https://forged.example/', 'explain takes the address it is given');
  });
});
