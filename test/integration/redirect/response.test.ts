// api.md §7 step 7: the HTTP redirect itself — status, caching, and the merged query.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { makeDomain, makeLink, visit } from './redirect-support.ts';

onEachEngine('redirect: the HTTP answer', (h) => {
  test('302 by default, never cached, with no body to speak of', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { url: 'https://example.com/plain' });
    const res = await visit(h(), `/${link.alias}`);
    assert.equal(res.status, 302);
    assert.equal(res.location, 'https://example.com/plain');
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  test('the incoming query is merged into the destination, keeping its port and fragment', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { url: 'https://example.com:8443/p?a=1#top' });
    const go = async (query: string) => (await visit(h(), `/${link.alias}${query}`)).location;
    assert.equal(await go('?utm_source=x'), 'https://example.com:8443/p?a=1&utm_source=x#top');
    assert.equal(await go(''), 'https://example.com:8443/p?a=1#top');
    assert.equal(
      await go('?utm_source=x&utm_medium=mail'),
      'https://example.com:8443/p?a=1&utm_source=x&utm_medium=mail#top',
    );
    // The owner's own parameters win over a visitor's.
    assert.equal(await go('?a=2&b=3'), 'https://example.com:8443/p?a=1&b=3#top');
    // The visitor's parameters are carried as sent, repeated ones included.
    assert.equal(await go('?q=a%20b%26c'), 'https://example.com:8443/p?a=1&q=a%20b%26c#top');
    assert.equal(await go('?tag=x&tag=y'), 'https://example.com:8443/p?a=1&tag=x&tag=y#top');

    // The owner's query is kept byte for byte: a server reading %20 and + differently, or a
    // bare flag, must get what the owner wrote.
    const exact = await makeLink(h(), key, { url: 'https://example.com/files?name=my%20file.pdf&flag&path=/a/b' });
    assert.equal(
      (await visit(h(), `/${exact.alias}?utm_source=x`)).location,
      'https://example.com/files?name=my%20file.pdf&flag&path=/a/b&utm_source=x',
    );
    assert.equal(
      (await visit(h(), `/${exact.alias}?flag=1&name=other`)).location,
      'https://example.com/files?name=my%20file.pdf&flag&path=/a/b',
    );

    const bare = await makeLink(h(), key, { url: 'https://example.com/landing' });
    assert.equal(
      (await visit(h(), `/${bare.alias}?utm_campaign=spring`)).location,
      'https://example.com/landing?utm_campaign=spring',
    );
  });

  test('the query is merged into a targeted destination too', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, {
      url: 'https://example.com/',
      target_type: 3,
      language: [{ key: 'de', value: 'https://de.example.com/start?lang=de' }],
    });
    const res = await visit(h(), `/${link.alias}?ref=mail`, { 'accept-language': 'de-DE' });
    assert.equal(res.location, 'https://de.example.com/start?lang=de&ref=mail');
  });

  test('domain pages redirect with the same status and no-store', async () => {
    const { key } = await h().account();
    const domain = await makeDomain(h(), key, {
      index_page: 'https://example.com/home',
      not_found_page: 'https://example.com/404',
    });
    for (const [path, to] of [
      ['/', 'https://example.com/home'],
      ['/missing-one', 'https://example.com/404'],
    ] as const) {
      const res = await visit(h(), path, { host: domain.name });
      assert.equal(res.status, 302, path);
      assert.equal(res.location, to);
      assert.equal(res.headers['cache-control'], 'no-store');
    }
  });
});

for (const status of ['301', '307', '308'] as const) {
  onEachEngine(
    `redirect: REDIRECT_STATUS=${status}`,
    (h) => {
      test(`links, expiration_url and domain pages answer ${status}`, async () => {
        const { key } = await h().account();
        const link = await makeLink(h(), key, { url: 'https://example.com/moved' });
        const res = await visit(h(), `/${link.alias}?x=1`);
        assert.equal(res.status, Number(status));
        assert.equal(res.location, 'https://example.com/moved?x=1');
        assert.equal(res.headers['cache-control'], 'no-store');

        const expired = await makeLink(h(), key, {
          url: 'https://example.com/old',
          expiration_url: 'https://example.com/gone',
          expiration_date: '2020-01-01',
          expiration_time: '00:00',
        });
        const gone = await visit(h(), `/${expired.alias}`);
        assert.equal(gone.status, Number(status));
        assert.equal(gone.location, 'https://example.com/gone');

        const domain = await makeDomain(h(), key, { index_page: 'https://example.com/home' });
        const root = await visit(h(), '/', { host: domain.name });
        assert.equal(root.status, Number(status));
        assert.equal(root.location, 'https://example.com/home');
      });
    },
    { env: { REDIRECT_STATUS: status } },
  );
}
