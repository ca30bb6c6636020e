// The domains screens (list, new, edit, delete) and "Check now" (docs/design/domains.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import {
  apiCreate,
  assertSeeOther,
  postWithoutCsrf,
  resourcePageTests,
  webAccount,
} from '../../support/web-resources.ts';
import { uniqueHost } from '../redirect/redirect-support.ts';

onEachEngine('web: domains', (h) => {
  resourcePageTests(h, {
    plural: 'domains',
    uniqueName: () => uniqueHost('web'),
    form: (name) => ({ name }),
    invalid: [
      { form: { name: '' }, field: 'name', message: 'The name field is required.' },
      { form: { name: 'not a host' }, field: 'name', message: 'The name format is invalid.' },
      {
        form: { name: uniqueHost(), index_page: 'javascript:alert(1)' },
        field: 'index_page',
        message: 'The index page field must be a URL whose scheme is http or https.',
      },
      {
        form: { name: uniqueHost(), not_found_page: 'ftp://example.com/x' },
        field: 'not_found_page',
        message: 'The not found page field must be a URL whose scheme is http or https.',
      },
    ],
    edit: {
      form: (name) => ({ name, index_page: 'https://example.com/home', not_found_page: '' }),
      expect: (name) => ({ name, index_page: 'https://example.com/home', not_found_page: null, status: 'pending' }),
    },
    badEdit: {
      form: (name) => ({ name, index_page: 'not a url' }),
      field: 'index_page',
      message: 'The index page field must be a valid URL.',
    },
    scriptForm: { name: uniqueHost('script'), index_page: 'https://example.com/<script>alert(1)</script>' },
  });

  test('pending → publish the token in DNS → Check now → verified', async () => {
    const me = await webAccount(h());
    const name = uniqueHost('verify');
    const created = await me.client.post('/domains/new', { name }, { from: '/domains/new' });
    assertSeeOther(created, /^\/domains\/\d+\/edit$/);
    const id = Number(/\/domains\/(\d+)\//.exec(created.location!)![1]);
    const record = (await h().request('GET', `/api/v1/domains/${id}`, { key: me.key })).body.data;

    const pending = await me.client.get(created.location!);
    assert.match(pending.text, /class="status-pending">Pending</);
    for (const shown of [
      record.verification.token,
      `_linkpix.${name}`,
      `http://${name}/.well-known/linkpix/${record.verification.token}`,
    ]) {
      assert.ok(pending.text.includes(shown), shown);
    }
    assert.match((await me.client.get('/domains')).text, /class="status-pending">Pending</);

    // Nothing published yet: the reasons on the page, still pending.
    const notYet = await me.client.post(`/domains/${id}/verify`, {}, { from: created.location! });
    assert.equal(notYet.status, 422);
    assert.ok(
      notYet.text.includes(`Did not find`) && notYet.text.includes(`_linkpix.${name}`),
      notYet.text.slice(0, 2000),
    );
    assert.equal((await h().request('GET', `/api/v1/domains/${id}`, { key: me.key })).body.data.status, 'pending');

    // Without a CSRF token nothing is looked up.
    h().dns.publishTxt(record.verification.txt_name, record.verification.token);
    assert.equal((await postWithoutCsrf(me.client, `/domains/${id}/verify`, {})).status, 403);
    assert.equal((await h().request('GET', `/api/v1/domains/${id}`, { key: me.key })).body.data.status, 'pending');

    const done = await me.client.post(`/domains/${id}/verify`, {}, { from: created.location! });
    assertSeeOther(done, `/domains/${id}/edit`);
    const verified = await me.client.get(done.location!);
    assert.match(verified.text, /<p class="flash" role="status">[^<]*verified[^<]*<\/p>/);
    assert.match(verified.text, /class="status-verified">Verified</);
    assert.ok(!verified.text.includes('Check now'));
    assert.equal((await h().request('GET', `/api/v1/domains/${id}`, { key: me.key })).body.data.status, 'verified');
  });

  test("Check now on another account's domain is a 404 and verifies nothing", async () => {
    const me = await webAccount(h());
    const other = await h().account();
    const theirs = await apiCreate(h(), other.key, 'domains', { name: uniqueHost('theirs') });
    h().dns.publishTxt(theirs.verification.txt_name, theirs.verification.token);
    assert.equal((await me.client.post(`/domains/${theirs.id}/verify`, {}, { from: '/domains' })).status, 404);
    assert.equal(
      (await h().request('GET', `/api/v1/domains/${theirs.id}`, { key: other.key })).body.data.status,
      'pending',
    );
  });
});
