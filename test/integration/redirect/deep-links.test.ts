// App deep links (docs/api.md, Rules; docs/design/rules.md): a link's and a rule's ios_url / android_url
// sent to visitors on that OS, a custom scheme through the page that falls back to the web URL,
// and a domain's app-link files served on its host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { UA, assertPage, clickRows, makeDomain, makeLink, redirectsTo, visit } from './redirect-support.ts';

const DEFAULT = 'https://example.com/default';

const AASA = {
  applinks: { details: [{ appIDs: ['ABCDE12345.com.example.app'], components: [{ '/': '/shop/*' }] }] },
  webcredentials: { apps: ['ABCDE12345.com.example.app'] },
};
const FINGERPRINT = Array.from({ length: 32 }, (_, i) => (i * 7).toString(16).toUpperCase().padStart(2, '0')).join(':');
const ASSET_LINKS = [
  {
    relation: ['delegate_permission/common.handle_all_urls'],
    target: { namespace: 'android_app', package_name: 'com.example.app', sha256_cert_fingerprints: [FINGERPRINT] },
  },
];

onEachEngine(
  'redirect: app deep links',
  (h) => {
    test("the link's app links go to visitors on iOS and Android; a custom scheme opens through a page", async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, {
        url: DEFAULT,
        ios_url: 'https://app.example.com/ios',
        android_url: 'myapp://open/item?id=7',
      });
      assert.equal(link.ios_url, 'https://app.example.com/ios');
      assert.equal(link.android_url, 'myapp://open/item?id=7');
      const path = `/${link.alias}`;
      assert.equal(await redirectsTo(h(), path, { 'user-agent': UA.iphone }), 'https://app.example.com/ios');
      assert.equal(
        await redirectsTo(h(), `${path}?utm_source=qr`, { 'user-agent': UA.iphone }),
        'https://app.example.com/ios?utm_source=qr',
      );
      assert.equal(await redirectsTo(h(), path, { 'user-agent': UA.windows }), DEFAULT);

      const android = await visit(h(), path, { 'user-agent': UA.android });
      assertPage(android, 200, 'href="myapp://open/item?id=7"');
      assert.ok(android.text.includes(`href="${DEFAULT}"`), 'the web URL is a link too');
      assert.ok(
        android.text.includes('"myapp://open/item?id=7"') && android.text.includes(`"${DEFAULT}"`),
        'the script opens the app, then the web URL',
      );
      const csp = String(android.headers['content-security-policy']);
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      assert.ok(nonce && /script-src 'nonce-/.test(csp), csp);
      assert.ok(android.text.includes(`<script nonce="${nonce}">`), 'the script runs only by its nonce');
      assert.doesNotMatch(csp, /unsafe-inline/);
      assert.equal((await clickRows(h(), link.id)).length, 4, 'every visit counted, app or web');

      const cleared = await h().request('PUT', `/api/v1/links/${link.id}`, {
        key,
        json: { ios_url: null, android_url: '' },
      });
      assert.equal(cleared.status, 200, cleared.text);
      assert.equal(cleared.body.data.ios_url, null);
      assert.equal(cleared.body.data.android_url, null);
      assert.equal(await redirectsTo(h(), path, { 'user-agent': UA.iphone }), DEFAULT);
    });

    test("a rule's app links go with the rule; the link's own only where its url is the destination", async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, {
        url: DEFAULT,
        ios_url: 'https://app.example.com/link',
        rules: JSON.stringify([
          {
            when: { query: { c: 'shop' } },
            url: 'https://shop.example/',
            ios_url: 'https://app.example.com/shop',
            android_url: 'myapp://shop',
          },
          { when: { query: { c: 'blog' } }, url: 'https://blog.example/' },
        ]),
      });
      assert.equal(link.rules[0].ios_url, 'https://app.example.com/shop');
      const path = `/${link.alias}`;
      assert.equal(
        await redirectsTo(h(), `${path}?c=shop`, { 'user-agent': UA.iphone }),
        'https://app.example.com/shop?c=shop',
      );
      assertPage(await visit(h(), `${path}?c=shop`, { 'user-agent': UA.android }), 200, 'href="myapp://shop?c=shop"');
      assert.equal(
        await redirectsTo(h(), `${path}?c=blog`, { 'user-agent': UA.iphone }),
        'https://blog.example/?c=blog',
        "a rule without app links: its url, not the link's app link",
      );
      assert.equal(await redirectsTo(h(), path, { 'user-agent': UA.iphone }), 'https://app.example.com/link');
      assert.equal(await redirectsTo(h(), `${path}?c=shop`, { 'user-agent': UA.mac }), 'https://shop.example/?c=shop');
    });

    test('an app link must be https or a scheme on APP_SCHEMES: a 422 names the field, nothing is written', async () => {
      const { key } = await h().account();
      const bad = await h().request('POST', '/api/v1/links', {
        key,
        json: {
          url: DEFAULT,
          alias: 'app-bad',
          ios_url: 'javascript:alert(1)',
          android_url: 'otherapp://x',
          rules: [{ when: {}, url: 'https://a.example/', ios_url: 'http://plain.example/' }],
        },
      });
      assert.equal(bad.status, 422, bad.text);
      assert.deepEqual(Object.keys(bad.body.message).sort(), ['android_url', 'ios_url', 'rules.0.ios_url']);
      assert.match(bad.body.message.android_url[0], /https URL or use one of the schemes myapp/);
      assert.equal(
        (await h().request('GET', '/api/v1/links?search=app-bad&by=alias', { key })).body.meta?.total ?? 0,
        0,
      );
      const link = await makeLink(h(), key, { url: DEFAULT });
      const put = await h().request('PUT', `/api/v1/links/${link.id}`, { key, json: { ios_url: 'data:text/html,x' } });
      assert.equal(put.status, 422);
      assert.deepEqual(Object.keys(put.body.message), ['ios_url']);
    });

    test("a domain's apple-app-site-association and assetlinks.json: set, served on its host as JSON, cleared", async () => {
      const { key } = await h().account();
      const domain = await makeDomain(h(), key);
      const put = await h().request('PUT', `/api/v1/domains/${domain.id}`, {
        key,
        json: { apple_app_site_association: AASA, assetlinks: ASSET_LINKS },
      });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(put.body.data.apple_app_site_association, AASA);
      assert.deepEqual(put.body.data.assetlinks, ASSET_LINKS);
      assert.deepEqual(
        (await h().request('GET', `/api/v1/domains/${domain.id}`, { key })).body.data.assetlinks,
        ASSET_LINKS,
      );

      const aasa = await visit(h(), '/.well-known/apple-app-site-association', { host: domain.name });
      assert.equal(aasa.status, 200, aasa.text);
      assert.match(String(aasa.headers['content-type']), /^application\/json(;|$)/);
      assert.deepEqual(JSON.parse(aasa.text), AASA);
      const assets = await visit(h(), '/.well-known/assetlinks.json', { host: domain.name });
      assert.equal(assets.status, 200);
      assert.match(String(assets.headers['content-type']), /^application\/json(;|$)/);
      assert.deepEqual(JSON.parse(assets.text), ASSET_LINKS);
      assert.equal((await visit(h(), '/.well-known/assetlinks.json')).status, 404, "the app's own host serves none");

      // A form sends JSON text; null (or an empty field) removes a file.
      const form = await h().request('PUT', `/api/v1/domains/${domain.id}`, {
        key,
        form: { assetlinks: JSON.stringify(ASSET_LINKS), apple_app_site_association: '' },
      });
      assert.equal(form.status, 200, form.text);
      assert.equal(form.body.data.apple_app_site_association, null);
      assert.equal((await visit(h(), '/.well-known/apple-app-site-association', { host: domain.name })).status, 404);
      assert.equal((await visit(h(), '/.well-known/assetlinks.json', { host: domain.name })).status, 200);
    });

    test('app-link files are served checked and normalised: unknown keys dropped at every level, Apple’s activitycontinuation kept', async () => {
      const { key } = await h().account();
      const domain = await makeDomain(h(), key);
      const sent = {
        applinks: {
          apps: [],
          details: [
            {
              appIDs: ['ABCDE12345.com.example.app'],
              components: [{ '/': '/shop/*', '?': { ref: '*' }, exclude: false, note: 'x' }],
              extra: 1,
            },
          ],
          defaults: { caseSensitive: false, tracking: true },
          junk: { a: 1 },
        },
        activitycontinuation: { apps: ['ABCDE12345.com.example.app'], more: 1 },
        webcredentials: { apps: ['ABCDE12345.com.example.app'] },
        '<script>': 'anything at all',
      };
      const kept = {
        applinks: {
          apps: [],
          details: [
            {
              appIDs: ['ABCDE12345.com.example.app'],
              components: [{ '/': '/shop/*', '?': { ref: '*' }, exclude: false }],
            },
          ],
          defaults: { caseSensitive: false },
        },
        webcredentials: { apps: ['ABCDE12345.com.example.app'] },
        activitycontinuation: { apps: ['ABCDE12345.com.example.app'] },
      };
      const assets = [{ ...ASSET_LINKS[0], note: 1, target: { ...ASSET_LINKS[0]!.target, extra: 'x' } }];
      const put = await h().request('PUT', `/api/v1/domains/${domain.id}`, {
        key,
        json: { apple_app_site_association: sent, assetlinks: assets },
      });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(put.body.data.apple_app_site_association, kept);
      assert.deepEqual(put.body.data.assetlinks, ASSET_LINKS);
      assert.deepEqual(
        JSON.parse((await visit(h(), '/.well-known/apple-app-site-association', { host: domain.name })).text),
        kept,
      );
      assert.deepEqual(
        JSON.parse((await visit(h(), '/.well-known/assetlinks.json', { host: domain.name })).text),
        ASSET_LINKS,
      );
      const onlyHandoff = await h().request('PUT', `/api/v1/domains/${domain.id}`, {
        key,
        json: { apple_app_site_association: { activitycontinuation: kept.activitycontinuation } },
      });
      assert.equal(onlyHandoff.status, 200, 'activitycontinuation alone is a file');

      // A file saved before the check dropped unknown keys is served without them.
      const other = await makeDomain(h(), key);
      await h()
        .server.container.storage.db.updateTable('domains')
        .set({
          apple_app_site_association: JSON.stringify({ ...AASA, unknown: { secret: 1 } }),
          assetlinks: JSON.stringify(assets),
        })
        .where('id', '=', other.id)
        .execute();
      assert.deepEqual(
        JSON.parse((await visit(h(), '/.well-known/apple-app-site-association', { host: other.name })).text),
        AASA,
      );
      assert.deepEqual(
        JSON.parse((await visit(h(), '/.well-known/assetlinks.json', { host: other.name })).text),
        ASSET_LINKS,
      );
    });

    test('bad app-link files are a 422 naming the field, and the domain keeps what it had', async () => {
      const { key } = await h().account();
      const domain = await makeDomain(h(), key);
      assert.equal(
        (await h().request('PUT', `/api/v1/domains/${domain.id}`, { key, json: { assetlinks: ASSET_LINKS } })).status,
        200,
      );
      const bad = await h().request('PUT', `/api/v1/domains/${domain.id}`, {
        key,
        json: {
          index_page: 'https://example.com/new-home',
          apple_app_site_association: { applinks: { details: [{ appIDs: ['not-an-app-id'], paths: ['/x'] }] } },
          assetlinks: [
            {
              relation: ['delegate_permission/common.handle_all_urls'],
              target: {
                namespace: 'android_app',
                package_name: 'com.example.app',
                sha256_cert_fingerprints: ['AB:CD'],
              },
            },
          ],
        },
      });
      assert.equal(bad.status, 422, bad.text);
      assert.deepEqual(Object.keys(bad.body.message).sort(), [
        'apple_app_site_association.applinks.details.0.appIDs',
        'assetlinks.0.target.sha256_cert_fingerprints.0',
      ]);
      // A null appIDs beside a good appID is a bad appIDs, not a file served naming neither.
      const nullIds = await h().request('PUT', `/api/v1/domains/${domain.id}`, {
        key,
        json: {
          apple_app_site_association: {
            applinks: { details: [{ appIDs: null, appID: 'ABCDE12345.com.example.app', paths: ['/x'] }] },
          },
        },
      });
      assert.equal(nullIds.status, 422, nullIds.text);
      assert.deepEqual(Object.keys(nullIds.body.message), ['apple_app_site_association.applinks.details.0.appIDs']);
      const text = await h().request('PUT', `/api/v1/domains/${domain.id}`, { key, form: { assetlinks: '{not json' } });
      assert.equal(text.status, 422);
      assert.deepEqual(Object.keys(text.body.message), ['assetlinks']);
      const read = (await h().request('GET', `/api/v1/domains/${domain.id}`, { key })).body.data;
      assert.deepEqual(read.assetlinks, ASSET_LINKS);
      assert.equal(read.index_page, null, 'nothing of the refused update was written');
    });

    test("another account's domain cannot be given files", async () => {
      const mine = await h().account();
      const theirs = await h().account();
      const domain = await makeDomain(h(), theirs.key);
      const res = await h().request('PUT', `/api/v1/domains/${domain.id}`, {
        key: mine.key,
        json: { assetlinks: ASSET_LINKS },
      });
      assert.equal(res.status, 404);
    });
  },
  { env: { APP_SCHEMES: 'myapp' } },
);
