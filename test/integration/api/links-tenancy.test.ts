import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { assertNotFound, idsOf, listLinks, makeDomain, makeLink, makePixel, makeSpace } from './links-support.ts';

onEachEngine('links API: tenant isolation', (h) => {
  /** Account A with a fully attached link, an expired one and a disabled one; account B with one plain link. */
  async function twoAccounts() {
    const a = await h().account();
    const b = await h().account();
    const space = await makeSpace(h(), a.key);
    const domain = await makeDomain(h(), a.key);
    const pixel = await makePixel(h(), a.key);
    const link = await makeLink(h(), a.key, {
      title: 'Secret plans',
      space: space.id,
      domain: domain.id,
      pixels: [pixel.id],
      password: 'pw',
    });
    const expired = await makeLink(h(), a.key, {
      title: 'Old',
      expiration_date: '2001-01-01',
      expiration_time: '00:00',
    });
    const disabled = await makeLink(h(), a.key, { title: 'Off', disabled: 1 });
    await h().server.container.storage.db.updateTable('links').set({ clicks: 50 }).where('id', '=', link.id).execute();
    const own = await makeLink(h(), b.key, { title: 'Mine' });
    return { a, b, space, domain, pixel, link: { ...link, clicks: 50 }, expired, disabled, own };
  }

  test("B cannot read, update or delete A's link: 404, and A's link is unchanged", async () => {
    const { a, b, link } = await twoAccounts();
    const before = (await h().request('GET', `/api/v1/links/${link.id}`, { key: a.key })).body.data;
    assertNotFound(await h().request('GET', `/api/v1/links/${link.id}`, { key: b.key }));
    assertNotFound(
      await h().request('PUT', `/api/v1/links/${link.id}`, { key: b.key, form: { url: 'https://evil.example.com' } }),
    );
    assertNotFound(await h().request('PATCH', `/api/v1/links/${link.id}`, { key: b.key, json: { disabled: 1 } }));
    // A bad body does not turn the 404 into a 422 that would confirm the id exists.
    assertNotFound(await h().request('PUT', `/api/v1/links/${link.id}`, { key: b.key, form: { url: 'javascript:x' } }));
    assertNotFound(await h().request('DELETE', `/api/v1/links/${link.id}`, { key: b.key }));
    assertNotFound(await h().request('DELETE', `/links/${link.id}/destroy`, { key: b.key }));
    const after = await h().request('GET', `/api/v1/links/${link.id}`, { key: a.key });
    assert.equal(after.status, 200);
    assert.deepEqual(after.body.data, before);
  });

  test("A's link answers B exactly as an id that never existed", async () => {
    const { b, link } = await twoAccounts();
    const foreign = await h().request('GET', `/api/v1/links/${link.id}`, { key: b.key });
    const unknown = await h().request('GET', '/api/v1/links/2147483000', { key: b.key });
    assert.equal(foreign.status, unknown.status);
    assert.equal(foreign.text, unknown.text);
  });

  test("B's lists show none of A's links, whatever the filter", async () => {
    const { a, b, space, domain, pixel, link, expired, disabled, own } = await twoAccounts();
    const queries = [
      '',
      'status=0',
      'status=1',
      'status=2',
      'status=3',
      'sort=max',
      'sort=min',
      'sort=asc',
      'search=secret',
      'search=plans&by=title',
      `search=${link.alias}&by=alias`,
      'search=example&by=url',
      `space=${space.id}`,
      `space_id=${space.id}`,
      `domain=${domain.id}`,
      `domain_id=${domain.id}`,
      `pixel=${pixel.id}`,
      `pixel_id=${pixel.id}`,
      'per_page=100',
      'page=2',
    ];
    const aIds = new Set([link.id, expired.id, disabled.id]);
    for (const query of queries) {
      const body = await listLinks(h(), b.key, query);
      for (const l of body.data) assert.ok(!aIds.has(l.id), `${query} leaked link ${l.id}`);
      assert.ok(
        body.data.every((l: { id: number }) => l.id === own.id),
        query,
      );
      assert.ok(body.meta.total <= 1, `${query}: total ${body.meta.total}`);
    }
    assert.deepEqual(await idsOf(h(), b.key), [own.id]);
    assert.deepEqual(await idsOf(h(), b.key, `space=${space.id}`), []);
    assert.equal((await listLinks(h(), b.key, `pixel=${pixel.id}`)).meta.total, 0);

    // And A sees its own, none of B's.
    assert.deepEqual(await idsOf(h(), a.key), [disabled.id, expired.id, link.id]);
    assert.deepEqual(await idsOf(h(), a.key, 'search=mine'), []);
    assert.deepEqual(await idsOf(h(), a.key, `space=${space.id}`), [link.id]);
    assert.deepEqual(await idsOf(h(), a.key, 'status=2'), [expired.id]);
  });

  test("B's link may not borrow A's space, domain or pixels, on create or update", async () => {
    const { b, space, domain, pixel, own } = await twoAccounts();
    for (const form of [{ space: space.id }, { domain: domain.id }, { pixels: [pixel.id] }]) {
      const res = await h().request('POST', '/api/v1/links', {
        key: b.key,
        form: { url: 'https://example.com', ...form },
      });
      assert.equal(res.status, 422, res.text);
    }
    for (const form of [{ space: space.id }, { pixels: [pixel.id] }]) {
      const res = await h().request('PUT', `/api/v1/links/${own.id}`, { key: b.key, form });
      assert.equal(res.status, 422, res.text);
    }
    assert.deepEqual(await idsOf(h(), b.key), [own.id]);
    const read = (await h().request('GET', `/api/v1/links/${own.id}`, { key: b.key })).body.data;
    assert.equal(read.space, null);
    assert.deepEqual(read.pixels, []);
  });

  test('without a valid key nothing about links is answered', async () => {
    const { link } = await twoAccounts();
    for (const key of [null, 'not-a-key', 'lp_0000000000000000000000000000000000000000']) {
      const read = await h().request('GET', `/api/v1/links/${link.id}`, { key });
      assert.equal(read.status, 401);
      assert.deepEqual(read.body, { message: 'Unauthenticated.', status: 401 });
      assert.equal((await h().request('GET', '/api/v1/links', { key })).status, 401);
      assert.equal((await h().request('DELETE', `/links/${link.id}/destroy`, { key })).status, 401);
    }
  });
});
