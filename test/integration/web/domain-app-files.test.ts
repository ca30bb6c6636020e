import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { assertSeeOther, fieldError, webAccount } from '../../support/web-resources.ts';

const PRINT = Array.from({ length: 32 }, () => 'AB').join(':');
const AASA = { applinks: { details: [{ appIDs: ['ABCDE12345.com.example.app'], paths: ['/go/*'] }] } };
const ASSETLINKS = [
  {
    relation: ['delegate_permission/common.handle_all_urls'],
    target: { namespace: 'android_app', package_name: 'com.example.app', sha256_cert_fingerprints: [PRINT] },
  },
];

/** A textarea's text as the page shows it, entities read back. */
const boxOf = (page: string, name: string) =>
  new RegExp(`<textarea[^>]*name="${name}"[^>]*>([^<]*)</textarea>`)
    .exec(page)?.[1]
    ?.replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

onEachEngine('web: a domain’s app-site files (apple-app-site-association, assetlinks.json)', (h) => {
  test('saved as JSON text, shown back indented, cleared by emptying the box', async () => {
    const me = await webAccount(h());
    const name = `apps-${Date.now()}.example.com`;
    const created = await me.client.post(
      '/domains/new',
      { name, apple_app_site_association: JSON.stringify(AASA), assetlinks: JSON.stringify(ASSETLINKS) },
      { from: '/domains/new' },
    );
    assertSeeOther(created, /^\/domains\/\d+\/edit$/);
    const id = Number(/\/domains\/(\d+)\//.exec(created.location!)![1]);
    const api = async () => (await h().request('GET', `/api/v1/domains/${id}`, { key: me.key })).body.data;
    assert.deepEqual((await api()).apple_app_site_association, AASA);
    assert.deepEqual((await api()).assetlinks, ASSETLINKS);
    const edit = await me.client.get(`/domains/${id}/edit`);
    assert.match(edit.text, /<legend>App links<\/legend>/);
    assert.equal(boxOf(edit.text, 'apple_app_site_association'), JSON.stringify(AASA, null, 2));
    assert.deepEqual(JSON.parse(boxOf(edit.text, 'assetlinks')!), ASSETLINKS);

    const cleared = await me.client.post(
      `/domains/${id}/edit`,
      { name, apple_app_site_association: '', assetlinks: boxOf(edit.text, 'assetlinks') },
      { from: `/domains/${id}/edit` },
    );
    assertSeeOther(cleared, '/domains');
    assert.equal((await api()).apple_app_site_association, null);
    assert.deepEqual((await api()).assetlinks, ASSETLINKS);
  });

  test('refused as the API refuses them: the box named (a fault deep inside too), the text kept, nothing written', async () => {
    const me = await webAccount(h());
    const name = `bad-apps-${Date.now()}.example.com`;
    const created = await me.client.post('/domains/new', { name }, { from: '/domains/new' });
    const id = Number(/\/domains\/(\d+)\//.exec(created.location!)![1]);
    const badIds = JSON.stringify({ applinks: { details: [{ appIDs: ['not-an-app-id'], paths: ['/'] }] } });
    const reply = await me.client.post(
      `/domains/${id}/edit`,
      { name, apple_app_site_association: badIds, assetlinks: '[{"relation": ' },
      { from: `/domains/${id}/edit` },
    );
    assert.equal(reply.status, 422);
    assert.match(fieldError(reply.text, 'apple_app_site_association') ?? '', /appIDs/);
    assert.ok(fieldError(reply.text, 'assetlinks'), 'assetlinks is named');
    assert.equal(boxOf(reply.text, 'apple_app_site_association'), badIds);
    assert.equal(boxOf(reply.text, 'assetlinks'), '[{"relation": ');
    assert.doesNotMatch(reply.text, /href="#f-apple_app_site_association\[/, 'every summary link reaches a box');
    const stored = (await h().request('GET', `/api/v1/domains/${id}`, { key: me.key })).body.data;
    assert.equal(stored.apple_app_site_association, null);
    assert.equal(stored.assetlinks, null);
  });
});
