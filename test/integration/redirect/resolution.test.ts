// api.md §7 step 1 and §6 (domains): which link, if any, answers a visit on which host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import {
  assertPage,
  clickRows,
  makeDomain,
  makeLink,
  readLink,
  redirectsTo,
  unique,
  uniqueHost,
  visit,
} from './redirect-support.ts';

onEachEngine('redirect: resolution', (h) => {
  test('an alias resolves whatever its case, on the app host', async () => {
    const { key } = await h().account();
    const alias = unique('MixedCase');
    const link = await makeLink(h(), key, { alias, url: 'https://example.com/case' });
    for (const path of [alias, alias.toLowerCase(), alias.toUpperCase()]) {
      assert.equal(await redirectsTo(h(), `/${path}`), 'https://example.com/case', path);
    }
    // The configured APP_URL host answers the same way.
    assert.equal(await redirectsTo(h(), `/${alias.toLowerCase()}`, { host: 'SHORT.test' }), 'https://example.com/case');
    assert.equal((await clickRows(h(), link.id)).length, 4);
  });

  test('an unknown alias answers the 404 page', async () => {
    const res = await visit(h(), `/${unique('nothing')}`);
    assertPage(res, 404, 'Link not found');
    assert.equal((await visit(h(), `/${unique('nothing')}`, {}, 'HEAD')).status, 404);
  });

  test("a custom domain resolves its own links, and not the default domain's", async () => {
    const { key } = await h().account();
    const domain = await makeDomain(h(), key);
    const shared = unique('same');
    const onDomain = await makeLink(h(), key, {
      alias: unique('dom'),
      url: 'https://example.com/on-domain',
      domain: domain.id,
    });
    const onDefault = await makeLink(h(), key, { alias: unique('def'), url: 'https://example.com/on-default' });
    // One alias, once per domain: each host sends it to its own link.
    await makeLink(h(), key, { alias: shared, url: 'https://example.com/shared-domain', domain: domain.id });
    await makeLink(h(), key, { alias: shared, url: 'https://example.com/shared-default' });
    const host = { host: domain.name };

    assert.equal(await redirectsTo(h(), `/${onDomain.alias}`, host), 'https://example.com/on-domain');
    assert.equal(await redirectsTo(h(), `/${shared}`, host), 'https://example.com/shared-domain');
    assertPage(await visit(h(), `/${onDefault.alias}`, host), 404, 'Link not found');

    assert.equal(await redirectsTo(h(), `/${onDefault.alias}`), 'https://example.com/on-default');
    assert.equal(await redirectsTo(h(), `/${shared}`), 'https://example.com/shared-default');
    assertPage(await visit(h(), `/${onDomain.alias}`), 404, 'Link not found');
    assertPage(await visit(h(), `/${onDomain.alias}`, { host: 'short.test' }), 404, 'Link not found');
  });

  test('the domain host matches whatever its case, with a port and a trailing dot', async () => {
    const { key } = await h().account();
    const name = uniqueHost('go');
    const domain = await makeDomain(h(), key, { name });
    const link = await makeLink(h(), key, { url: 'https://example.com/ported', domain: domain.id });
    const mixed = name.replace(/^go/, 'GO').replace(/example\.com$/, 'Example.COM');
    for (const hostHeader of [`${mixed}:8443`, mixed, `${name}.`, `${name}:80`]) {
      assert.equal(
        await redirectsTo(h(), `/${link.alias.toUpperCase()}`, { host: hostHeader }),
        'https://example.com/ported',
        hostHeader,
      );
    }
  });

  test("another account's domain does not answer for this account's default links", async () => {
    const owner = await h().account();
    const other = await h().account();
    const domain = await makeDomain(h(), owner.key);
    const foreign = await makeLink(h(), other.key, { url: 'https://example.com/foreign' });
    assertPage(await visit(h(), `/${foreign.alias}`, { host: domain.name }), 404, 'Link not found');
  });

  test("a domain's root goes to its index page; without one, the 404 page", async () => {
    const { key } = await h().account();
    const withIndex = await makeDomain(h(), key, { index_page: 'https://example.com/home' });
    const bare = await makeDomain(h(), key);
    const res = await visit(h(), '/', { host: withIndex.name });
    assert.equal(res.status, 302);
    assert.equal(res.location, 'https://example.com/home');
    assert.equal(res.headers['cache-control'], 'no-store');
    assertPage(await visit(h(), '/', { host: bare.name }), 404, 'Link not found');
    // The app's own root is not a domain's.
    const app = await visit(h(), '/', { host: 'short.test' });
    assert.equal(app.status, 200);
    assert.equal(app.location, undefined);
    // An index page set later applies at once.
    const put = await h().request('PUT', `/api/v1/domains/${bare.id}`, {
      key,
      form: { index_page: 'https://example.com/later' },
    });
    assert.equal(put.status, 200, put.text);
    assert.equal((await visit(h(), '/', { host: bare.name })).location, 'https://example.com/later');
  });

  test('an unknown alias on a domain goes to its not-found page; without one, the 404 page', async () => {
    const { key } = await h().account();
    const withPage = await makeDomain(h(), key, { not_found_page: 'https://example.com/missing' });
    const bare = await makeDomain(h(), key, { index_page: 'https://example.com/home' });
    const res = await visit(h(), `/${unique('nope')}`, { host: withPage.name });
    assert.equal(res.status, 302);
    assert.equal(res.location, 'https://example.com/missing');
    assertPage(await visit(h(), `/${unique('nope')}`, { host: bare.name }), 404, 'Link not found');
    // The default domain's 404 is never a domain's page.
    assertPage(await visit(h(), `/${unique('nope')}`), 404, 'Link not found');
    // A link created after a miss is found (the miss is not remembered past the create).
    const alias = unique('late');
    assert.equal((await visit(h(), `/${alias}`, { host: withPage.name })).location, 'https://example.com/missing');
    await makeLink(h(), key, { alias, url: 'https://example.com/late', domain: withPage.id });
    assert.equal(await redirectsTo(h(), `/${alias}`, { host: withPage.name }), 'https://example.com/late');
  });

  test('/{alias}/+ previews the destination and title without a click', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { url: 'https://example.com/preview/target', title: 'A Previewed Page' });
    const res = await visit(h(), `/${link.alias.toUpperCase()}/+`);
    assertPage(res, 200, 'https://example.com/preview/target');
    assert.ok(res.text.includes('A Previewed Page'), 'the title is shown');
    assert.ok(res.text.includes(`http://short.test/${link.alias}`), 'the short URL is shown');
    assert.equal((await visit(h(), `/${link.alias}/+`, {}, 'HEAD')).status, 200);
    // A bot's preview is no click either.
    assert.equal((await visit(h(), `/${link.alias}/+`, { 'user-agent': 'curl/8.5.0' })).status, 200);
    assert.deepEqual(await clickRows(h(), link.id), []);
    assert.equal((await readLink(h(), key, link.id)).clicks, 0);

    const domain = await makeDomain(h(), key);
    const onDomain = await makeLink(h(), key, { url: 'https://example.com/d', domain: domain.id });
    const there = await visit(h(), `/${onDomain.alias}/+`, { host: domain.name });
    assertPage(there, 200, `https://${domain.name}/${onDomain.alias}`);
    assertPage(await visit(h(), `/${onDomain.alias}/+`), 404, 'Link not found');
    assertPage(await visit(h(), `/${unique('none')}/+`), 404, 'Link not found');
  });
});
