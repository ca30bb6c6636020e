// The redirect's fast path (src/adapters/redirect/door.ts) answers a cached link's
// visit before Fastify. The first visit of a link reads it through the Fastify route; the next
// ones take the fast path: both must give the same answer and record the same clicks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { clickRows, makeDomain, makeLink, UA, visit } from './redirect-support.ts';

onEachEngine('redirect: the fast path answers as the route does', (h) => {
  test('a cached link gets the same redirect, headers and click as on its first visit', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { url: 'https://example.com/p?a=1#top' });
    const first = await visit(h(), `/${link.alias}?utm_source=x`);
    const second = await visit(h(), `/${link.alias}?utm_source=x`);
    for (const res of [first, second]) {
      assert.equal(res.status, 302);
      assert.equal(res.location, 'https://example.com/p?a=1&utm_source=x#top');
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.headers['content-length'], '0');
    }
    assert.deepEqual(Object.keys(second.headers).sort(), Object.keys(first.headers).sort());
    const rows = await clickRows(h(), link.id);
    assert.equal(rows.length, 2);
    assert.deepEqual({ ...rows[1], id: 0, at: 0 }, { ...rows[0], id: 0, at: 0 });
  });

  test('HEAD of a cached link answers the redirect and records no click', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key);
    await visit(h(), `/${link.alias}`, {}, 'HEAD');
    const res = await visit(h(), `/${link.alias}`, {}, 'HEAD');
    assert.equal(res.status, 302);
    assert.equal((await clickRows(h(), link.id)).length, 0);
  });

  test('bots on a cached link are redirected and recorded apart', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key);
    for (let i = 0; i < 3; i++)
      assert.equal((await visit(h(), `/${link.alias}`, { 'user-agent': UA.googlebot })).status, 302);
    const rows = await clickRows(h(), link.id);
    assert.deepEqual(
      rows.map((r) => Number(r.is_bot)),
      [1, 1, 1],
    );
  });

  test('a link made unreachable after it was cached is no longer served from the cache', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { url: 'https://example.com/before' });
    await visit(h(), `/${link.alias}`);
    await visit(h(), `/${link.alias}`);
    const res = await h().request('PUT', `/api/v1/links/${link.id}`, { key, form: { disabled: 1 } });
    assert.equal(res.status, 200, res.text);
    assert.equal((await visit(h(), `/${link.alias}`)).status, 404);
  });

  test("the app's own one-segment routes are never taken for aliases", async () => {
    assert.equal((await visit(h(), '/health')).status, 200);
    assert.equal((await visit(h(), '/health')).status, 200);
    assert.match(String((await visit(h(), '/docs')).status), /^(200|30\d)$/);
  });
});

onEachEngine(
  'redirect: the fast path behind a trusted proxy',
  (h) => {
    test('X-Forwarded-For chooses the country on every visit, cached or not', async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, {
        url: 'https://example.com/',
        target_type: 1,
        country: [
          { key: 'US', value: 'https://example.com/us' },
          { key: 'GB', value: 'https://example.com/gb' },
        ],
      });
      for (let i = 0; i < 2; i++) {
        assert.equal(
          (await visit(h(), `/${link.alias}`, { 'x-forwarded-for': '8.8.8.8' })).location,
          'https://example.com/us',
        );
        assert.equal(
          (await visit(h(), `/${link.alias}`, { 'x-forwarded-for': '81.2.69.160' })).location,
          'https://example.com/gb',
        );
      }
      const rows = await clickRows(h(), link.id);
      assert.deepEqual(
        rows.map((r) => r.country),
        ['US', 'GB', 'US', 'GB'],
      );
    });

    test('X-Forwarded-Host names the custom domain a link is looked up on', async () => {
      const { key } = await h().account();
      const domain = await makeDomain(h(), key);
      const link = await makeLink(h(), key, { url: 'https://example.com/on-domain', domain: domain.id });
      for (let i = 0; i < 2; i++) {
        const res = await visit(h(), `/${link.alias}`, { 'x-forwarded-host': domain.name });
        assert.equal(res.location, 'https://example.com/on-domain');
      }
      // Without it, the request's own Host (an address) does not find the domain's link.
      assert.equal((await visit(h(), `/${link.alias}`)).status, 404);
    });
  },
  { env: { TRUST_PROXY: 'true' } },
);

onEachEngine('redirect: the fast path when no proxy is trusted', (h) => {
  test('X-Forwarded-For and X-Forwarded-Host are ignored, cached or not', async () => {
    const { key } = await h().account();
    const domain = await makeDomain(h(), key);
    const onDomain = await makeLink(h(), key, { domain: domain.id });
    const link = await makeLink(h(), key, {
      url: 'https://example.com/',
      target_type: 1,
      country: [{ key: 'US', value: 'https://example.com/us' }],
    });
    for (let i = 0; i < 2; i++) {
      assert.equal(
        (await visit(h(), `/${link.alias}`, { 'x-forwarded-for': '8.8.8.8' })).location,
        'https://example.com/',
      );
      assert.equal((await visit(h(), `/${onDomain.alias}`, { 'x-forwarded-host': domain.name })).status, 404);
    }
  });
});
