// Tags (issue 31): links carry them as `tags`, lists and exports filter by `tag=`, /api/v1/tags manages them; both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { multipartBody } from '../../support/multipart.ts';
import { assertInvalid, assertNotFound, makeLink, unique } from './links-support.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

async function tagsOf(h: Harness, key: string): Promise<Json[]> {
  const res = await h.request('GET', '/api/v1/tags', { key });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

const multipart = (file: string) => multipartBody([{ field: 'file', bytes: file, name: 'links.json' }]);

onEachEngine('API tags', (h) => {
  test('a link carries tags by name: new names become tags, repeats ignoring case are one, form tags[]= and JSON alike', async () => {
    const { key } = await h().account();
    const a = await makeLink(h(), key, { url: 'https://example.com/a', 'tags[]': ['Launch', ' launch ', 'Q3'] });
    assert.deepEqual(a.tags, ['Launch', 'Q3']);
    const b = await h().request('POST', '/api/v1/links', {
      key,
      json: { url: 'https://example.com/b', tags: ['LAUNCH', 'Café'] },
    });
    assert.equal(b.status, 201, b.text);
    assert.deepEqual(b.body.data.tags, ['Café', 'Launch'], 'the stored name is kept, and tags come by name');
    const read = await h().request('GET', `/api/v1/links/${a.id}`, { key });
    assert.deepEqual(read.body.data.tags, ['Launch', 'Q3']);
    const tags = await tagsOf(h(), key);
    assert.deepEqual(
      tags.map((t) => [t.name, t.links]),
      [
        ['Café', 1],
        ['Launch', 2],
        ['Q3', 1],
      ],
    );
    assert.ok(tags.every((t) => typeof t.color === 'string' && typeof t.id === 'number'));

    const kept = await h().request('PATCH', `/api/v1/links/${a.id}`, { key, json: { title: 'x' } });
    assert.deepEqual(kept.body.data.tags, ['Launch', 'Q3'], 'an update without tags leaves them');
    const replaced = await h().request('PATCH', `/api/v1/links/${a.id}`, { key, json: { tags: ['q3'] } });
    assert.deepEqual(replaced.body.data.tags, ['Q3']);
    const cleared = await h().request('PATCH', `/api/v1/links/${a.id}`, { key, json: { tags: null } });
    assert.deepEqual(cleared.body.data.tags, []);
  });

  test('names are checked: 1–32 characters, no control characters, at most 10 a link; nothing is half written', async () => {
    const { key } = await h().account();
    const refused = async (tags: unknown) => {
      const res = await h().request('POST', '/api/v1/links', { key, json: { url: 'https://example.com/', tags } });
      assertInvalid(res, ['tags']);
    };
    await refused(['   ']);
    await refused(['ok', '']);
    await refused(['x'.repeat(33)]);
    await refused(['bad\u0007bell']);
    await refused(['a\u200bb']);
    await refused(Array.from({ length: 11 }, (_, i) => `t${i}`));
    await refused([5]);
    await refused({ name: 'x' });
    await refused([{ name: 'x' }]);
    assert.deepEqual(await tagsOf(h(), key), []);
    assert.equal((await h().request('GET', '/api/v1/links', { key })).body.meta.total, 0);
    const ten = await makeLink(h(), key, { 'tags[]': Array.from({ length: 10 }, (_, i) => `t${i}`) });
    assert.equal(ten.tags.length, 10);
    const nfc = await h().request('POST', '/api/v1/links', {
      key,
      json: { url: 'https://example.com/', tags: ['Cafe\u0301'] },
    });
    assert.deepEqual(nfc.body.data.tags, ['Café'], 'stored NFC');
  });

  test('tag= filters the list, the bulk filter and the export, ignoring case', async () => {
    const { key } = await h().account();
    const a = await makeLink(h(), key, { 'tags[]': ['Red'] });
    const b = await makeLink(h(), key, { 'tags[]': ['red', 'Blue'] });
    await makeLink(h(), key, { 'tags[]': ['Blue'] });
    await makeLink(h(), key);
    const other = await h().account();
    await makeLink(h(), other.key, { 'tags[]': ['Red'] });
    const list = await h().request('GET', '/api/v1/links?tag=RED&sort=asc', { key });
    assert.deepEqual(
      list.body.data.map((l: Json) => l.id),
      [a.id, b.id],
    );
    assert.equal(list.body.meta.total, 2);
    assert.equal((await h().request('GET', '/api/v1/links?tag=nothing', { key })).body.meta.total, 0);
    const exported = await h().request('GET', '/api/v1/links/export?format=json&tag=red', { key });
    assert.equal(exported.body.version, 2);
    assert.deepEqual(
      exported.body.links.map((l: Json) => [l.id, l.tags]),
      [
        [a.id, ['Red']],
        [b.id, ['Blue', 'Red']],
      ],
    );
    const csv = await h().request('GET', '/api/v1/links/export?format=csv&tag=blue', { key });
    assert.match(csv.text.split('\r\n')[0]!, /,pixels,tags,/);
    const disabled = await h().request('PATCH', '/api/v1/links/bulk', {
      key,
      json: { filter: { tag: 'blue' }, action: 'disable' },
    });
    assert.equal(disabled.body.data.count, 2);
  });

  test('PUT renames and recolours; a taken name, a bad name or colour is a 422 naming the field', async () => {
    const { key } = await h().account();
    await makeLink(h(), key, { 'tags[]': ['One', 'Two'] });
    const [one, two] = await tagsOf(h(), key);
    const put = await h().request('PUT', `/api/v1/tags/${one.id}`, { key, form: { name: 'Uno', color: 'teal' } });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual([put.body.data.name, put.body.data.color, put.body.data.links], ['Uno', 'teal', 1]);
    assertInvalid(await h().request('PUT', `/api/v1/tags/${one.id}`, { key, json: { name: 'TWO' } }), ['name']);
    assertInvalid(await h().request('PUT', `/api/v1/tags/${one.id}`, { key, json: { name: ' ' } }), ['name']);
    assertInvalid(
      await h().request('PUT', `/api/v1/tags/${one.id}`, { key, json: { name: 'x'.repeat(33), color: 'beige' } }),
      ['name', 'color'],
    );
    assertInvalid(await h().request('PUT', `/api/v1/tags/${one.id}`, { key, json: { color: ['red'] } }), ['color']);
    const same = await h().request('PUT', `/api/v1/tags/${two.id}`, { key, json: { name: 'two' } });
    assert.equal(same.status, 200, 'its own name in another case');
    const links = await h().request('GET', '/api/v1/links', { key });
    assert.deepEqual(links.body.data[0].tags, ['two', 'Uno']);
  });

  test('DELETE removes the tag from its links and keeps the links', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { 'tags[]': ['Gone', 'Stays'] });
    const gone = (await tagsOf(h(), key)).find((t) => t.name === 'Gone');
    const res = await h().request('DELETE', `/api/v1/tags/${gone.id}`, { key });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { id: gone.id, object: 'tag', deleted: true, status: 200 });
    const read = await h().request('GET', `/api/v1/links/${link.id}`, { key });
    assert.deepEqual(read.body.data.tags, ['Stays']);
    assertNotFound(await h().request('DELETE', `/api/v1/tags/${gone.id}`, { key }));
  });

  test("another account's tag is a 404 on every route, and its names are its own", async () => {
    const mine = await h().account();
    const theirs = await h().account();
    await makeLink(h(), theirs.key, { 'tags[]': ['Secret'] });
    const [secret] = await tagsOf(h(), theirs.key);
    assertNotFound(await h().request('GET', `/api/v1/tags/${secret.id}`, { key: mine.key }));
    assertNotFound(await h().request('PUT', `/api/v1/tags/${secret.id}`, { key: mine.key, json: { name: 'Mine' } }));
    assertNotFound(await h().request('DELETE', `/api/v1/tags/${secret.id}`, { key: mine.key }));
    const same = await makeLink(h(), mine.key, { 'tags[]': ['secret'] });
    assert.deepEqual(same.tags, ['secret'], 'a tag of its own, not the other account’s');
    assert.deepEqual(
      (await tagsOf(h(), theirs.key)).map((t) => [t.name, t.links]),
      [['Secret', 1]],
    );
  });

  test('import: linkpix-json version 2 brings tags back; version 1 imports untagged', async () => {
    const { key } = await h().account();
    const alias = unique('tg');
    await makeLink(h(), key, { alias, 'tags[]': ['Imported', 'Two'] });
    const file = (await h().request('GET', '/api/v1/links/export?format=json', { key })).text;
    // Aliases are the service's, not the account's: the link leaves before it comes back.
    await h().request('DELETE', '/api/v1/links/bulk', { key, json: { filter: {} } });
    const to = await h().account();
    const report = await h().request('POST', '/api/v1/links/import', { key: to.key, ...(await multipart(file)) });
    assert.equal(report.status, 200, report.text);
    assert.equal(report.body.data.counts.created, 1);
    const list = await h().request('GET', '/api/v1/links', { key: to.key });
    assert.deepEqual(list.body.data[0].tags, ['Imported', 'Two']);

    const v1 = JSON.stringify({
      format: 'linkpix.links',
      version: 1,
      links: [{ alias: unique('v1'), url: 'https://example.com/v1', title: null }],
    });
    const old = await h().account();
    const r1 = await h().request('POST', '/api/v1/links/import', { key: old.key, ...(await multipart(v1)) });
    assert.equal(r1.body.data.counts.created, 1, r1.text);
    assert.deepEqual((await h().request('GET', '/api/v1/links', { key: old.key })).body.data[0].tags, []);
  });
});
