import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';

const LISTS = ['/api/v1/links', '/api/v1/pixels', '/api/v1/spaces', '/api/v1/domains'];

/** Numbers beyond what the databases take are refused by the schema, by name, before any SQL. */
onEachEngine('paging and id bounds', (h) => {
  test('a huge page or per_page is a 422 naming the field, on every list', async () => {
    const { key } = await h().account();
    const link = await h().request('POST', '/api/v1/links', { key, form: { url: 'https://example.com/bounds' } });
    assert.equal(link.status, 201);
    const lists = [...LISTS, `/api/v1/stats/${link.body.data.id}?name=clicks&`];
    for (const list of lists) {
      const join = list.endsWith('&') ? '' : '?';
      for (const page of ['1e300', '9007199254740993', '1000001', '0']) {
        const res = await h().request('GET', `${list}${join}page=${page}`, { key });
        assert.equal(res.status, 422, `${list} page=${page}: ${res.text}`);
        assert.deepEqual(Object.keys(res.body.message), ['page'], `${list} page=${page}`);
      }
      const perPage = await h().request('GET', `${list}${join}per_page=1e300`, { key });
      assert.equal(perPage.status, 422, `${list} per_page: ${perPage.text}`);
      assert.deepEqual(Object.keys(perPage.body.message), ['per_page']);
      assert.equal((await h().request('GET', `${list}${join}page=1000000`, { key })).status, 200, `${list} last page`);
    }
  });

  test('filter and body ids beyond 32 bits are a 422 naming the field', async () => {
    const { key } = await h().account();
    for (const name of ['space', 'domain', 'pixel', 'space_id']) {
      const res = await h().request('GET', `/api/v1/links?${name}=1e300`, { key });
      assert.equal(res.status, 422, `${name}: ${res.text}`);
      assert.deepEqual(Object.keys(res.body.message), [name.replace('_id', '')]);
    }
    const created = await h().request('POST', '/api/v1/links', {
      key,
      form: { url: 'https://example.com/ids', space: '9007199254740993', domain: '1e300', 'pixels[]': '2147483648' },
    });
    assert.equal(created.status, 422, created.text);
    assert.deepEqual(Object.keys(created.body.message).sort(), ['domain', 'pixels.0', 'space']);
    const list = await h().request('GET', '/api/v1/links', { key });
    assert.equal(list.body.meta.total, 0);
  });
});
