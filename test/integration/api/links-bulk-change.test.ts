import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { assertInvalid, idsOf, linkTotal, makeLink, makePixel, makeSpace } from './links-support.ts';

// Records are read loosely, as a client would.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

onEachEngine('links API: bulk change and delete', (h) => {
  const patch = (key: string, json: unknown) => h().request('PATCH', '/api/v1/links/bulk', { key, json });
  const del = (key: string, json?: unknown) =>
    h().request('DELETE', '/api/v1/links/bulk', { key, ...(json === undefined ? {} : { json }) });
  const read = async (key: string, id: number): Promise<Json> =>
    (await h().request('GET', `/api/v1/links/${id}`, { key })).body.data;
  const count = (res: Json, n: number) => {
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { data: { count: n }, status: 200 });
  };

  test('by ids: move, disable, enable, set and clear pixels, delete', async () => {
    const { key } = await h().account();
    const space = await makeSpace(h(), key);
    const [p1, p2] = [await makePixel(h(), key), await makePixel(h(), key)];
    const [a, b, c] = [await makeLink(h(), key), await makeLink(h(), key), await makeLink(h(), key)];
    const ids = [a.id, b.id];
    count(await patch(key, { ids, action: 'move', space_id: space.id }), 2);
    assert.equal((await read(key, a.id)).space.id, space.id);
    assert.equal((await read(key, c.id)).space, null, 'a link not named is untouched');
    count(await patch(key, { ids, action: 'move', space: null }), 2);
    assert.equal((await read(key, b.id)).space, null);
    count(await patch(key, { ids, action: 'disable' }), 2);
    assert.equal((await read(key, a.id)).disabled, 1);
    count(await patch(key, { ids: [a.id], action: 'enable' }), 1);
    assert.equal((await read(key, a.id)).disabled, 0);
    count(await patch(key, { ids, action: 'set_pixels', pixels: [p1.id, p2.id] }), 2);
    assert.deepEqual((await read(key, b.id)).pixels.map((p: Json) => p.id).sort(), [p1.id, p2.id].sort());
    count(await patch(key, { ids: [b.id], action: 'set_pixels', pixel_ids: [p2.id] }), 1);
    assert.deepEqual(
      (await read(key, b.id)).pixels.map((p: Json) => p.id),
      [p2.id],
    );
    count(await patch(key, { ids, action: 'clear_pixels' }), 2);
    assert.deepEqual((await read(key, a.id)).pixels, []);
    count(await del(key, { ids: [a.id, b.id, 2147483000] }), 2);
    assert.deepEqual(await idsOf(h(), key), [c.id]);
  });

  test("by the list's filters: only the matching links", async () => {
    const { key } = await h().account();
    const space = await makeSpace(h(), key);
    const inSpace = [
      await makeLink(h(), key, { space: space.id, title: 'Spring sale' }),
      await makeLink(h(), key, { space: space.id, title: 'Autumn' }),
    ];
    const outside = await makeLink(h(), key, { title: 'Spring too' });
    count(await patch(key, { filter: { space_id: space.id, search: 'spring' }, action: 'disable' }), 1);
    assert.equal((await read(key, inSpace[0].id)).disabled, 1);
    assert.equal((await read(key, inSpace[1].id)).disabled, 0);
    assert.equal((await read(key, outside.id)).disabled, 0);
    count(await del(key, { filter: { status: 3 } }), 1);
    count(await del(key, { filter: { search_by: 'alias', search: outside.alias } }), 1);
    assert.deepEqual(await idsOf(h(), key), [inSpace[1].id]);
    count(await del(key, { filter: {} }), 1);
    assert.equal(await linkTotal(h(), key), 0);
  });

  test("another account's links are never touched, by ids or by filter", async () => {
    const a = await h().account();
    const b = await h().account();
    const theirs = await makeLink(h(), a.key, { title: 'Theirs' });
    const before = await read(a.key, theirs.id);
    const bSpace = await makeSpace(h(), b.key);
    const bPixel = await makePixel(h(), b.key);
    count(await patch(b.key, { ids: [theirs.id], action: 'disable' }), 0);
    count(await patch(b.key, { ids: [theirs.id], action: 'move', space: bSpace.id }), 0);
    count(await patch(b.key, { ids: [theirs.id], action: 'set_pixels', pixels: [bPixel.id] }), 0);
    count(await patch(b.key, { filter: {}, action: 'disable' }), 0);
    count(await del(b.key, { ids: [theirs.id] }), 0);
    count(await del(b.key, { filter: { search: 'Theirs' } }), 0);
    assert.deepEqual(await read(a.key, theirs.id), before);
    // Nor may A's links be given B's space or pixels.
    assertInvalid(await patch(a.key, { ids: [theirs.id], action: 'move', space: bSpace.id }), ['space']);
    assertInvalid(await patch(a.key, { ids: [theirs.id], action: 'set_pixels', pixels: [bPixel.id] }), ['pixels']);
    assert.deepEqual(await read(a.key, theirs.id), before);
  });

  test('a link an operator took down stays disabled when enabled in bulk', async () => {
    const { key } = await h().account();
    const down = await makeLink(h(), key, { disabled: 1 });
    const off = await makeLink(h(), key, { disabled: 1 });
    await h()
      .server.container.storage.db.updateTable('links')
      .set({ blocked_at: Date.now() })
      .where('id', '=', down.id)
      .execute();
    count(await patch(key, { filter: { status: 3 }, action: 'enable' }), 1);
    assert.equal((await read(key, down.id)).disabled, 1);
    assert.equal((await read(key, off.id)).disabled, 0);
  });

  test('bad input: a 422 naming each field, and nothing changed', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key);
    const before = await read(key, link.id);
    assertInvalid(await patch(key, { action: 'disable' }), ['ids']);
    assertInvalid(await del(key), ['ids']);
    assertInvalid(await del(key, {}), ['ids']);
    assertInvalid(await del(key, { ids: [link.id], filter: {} }), ['ids']);
    assertInvalid(await del(key, { ids: [] }), ['ids']);
    assertInvalid(await del(key, { ids: ['x'] }), ['ids']);
    assertInvalid(await del(key, { ids: Array.from({ length: 1001 }, (_, i) => i + 1) }), ['ids']);
    assertInvalid(await del(key, { filter: { status: 9, space_id: 'x' } }), ['filter.status', 'filter.space']);
    assertInvalid(await patch(key, { ids: [link.id] }), ['action']);
    assertInvalid(await patch(key, { ids: [link.id], action: 'explode' }), ['action']);
    assertInvalid(await patch(key, { ids: [link.id], action: 'move' }), ['space']);
    assertInvalid(await patch(key, { action: 'set_pixels' }), ['pixels', 'ids']);
    assertInvalid(
      await patch(key, { ids: [link.id], action: 'set_pixels', pixels: Array.from({ length: 51 }, (_, i) => i + 1) }),
      ['pixels'],
    );
    const broken = await h().request('PATCH', '/api/v1/links/bulk', {
      key,
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(broken.status, 400);
    assert.deepEqual(await read(key, link.id), before);
    assert.equal((await h().request('DELETE', '/api/v1/links/bulk', { json: { filter: {} } })).status, 401);
    assert.deepEqual(await read(key, link.id), before);
  });
});
