// A link's history (docs/design/history.md) over the API: a version for each change through the
// API, bulk and import, newest first, secrets as "changed"; tags kept and put back; a restore as
// a new version; who may read and restore; both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { multipartBody } from '../../support/multipart.ts';
import { makeLink, makePixel, unique } from './links-support.ts';
import { addMember, makeKey, makeWorkspace, type Person } from './workspaces-support.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

async function history(h: Harness, key: string, id: number, query = ''): Promise<Json> {
  const res = await h.request('GET', `/api/v1/links/${id}/history${query}`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

const restore = (h: Harness, key: string, id: number, version: number) =>
  h.request('POST', `/api/v1/links/${id}/history/${version}/restore`, { key });

onEachEngine('API link history', (h) => {
  test('create, update and bulk: a version each, newest first, the person and the door; no secret', async () => {
    const person = await h().account();
    const link = await makeLink(h(), person.key, { url: 'https://example.com/a', password: 'hunter2-secret' });
    const put = await h().request('PUT', `/api/v1/links/${link.id}`, {
      key: person.key,
      json: { url: 'https://example.com/b', password: 'other-secret-99' },
    });
    assert.equal(put.status, 200, put.text);
    const same = await h().request('PUT', `/api/v1/links/${link.id}`, {
      key: person.key,
      json: { url: 'https://example.com/b' },
    });
    assert.equal(same.status, 200, same.text);
    const bulk = await h().request('PATCH', '/api/v1/links/bulk', {
      key: person.key,
      json: { ids: [link.id], action: 'disable' },
    });
    assert.equal(bulk.status, 200, bulk.text);

    const page = await history(h(), person.key, link.id);
    assert.deepEqual(
      page.data.map((v: Json) => v.version),
      [3, 2, 1],
      'an update that changed nothing adds no version',
    );
    assert.equal(page.meta.total, 3);
    const [disabled, updated, created] = page.data;
    for (const v of page.data) {
      assert.deepEqual(v.actor, { user_id: person.id, name: v.actor.name });
      assert.equal(v.via, 'api');
      assert.equal(v.restored_from, null);
      assert.match(v.at, /^\d{4}-\d{2}-\d{2}T/);
    }
    assert.deepEqual(created.changes.url, [null, 'https://example.com/a']);
    assert.deepEqual(updated.changes, { url: ['https://example.com/a', 'https://example.com/b'], password: 'changed' });
    assert.deepEqual(disabled.changes, { disabled: [0, 1] });
    const text = JSON.stringify(page);
    for (const secret of ['hunter2-secret', 'other-secret-99']) assert.ok(!text.includes(secret));
    assert.ok(!/\$argon|\$scrypt|sha256/i.test(text), 'no hash either');
    assert.equal((await history(h(), person.key, link.id, '?per_page=10&page=2')).data.length, 0);
  });

  test('an import: its links get their first version via import', async () => {
    const person = await h().account();
    const alias = unique('imp');
    const file = `url,alias\nhttps://example.com/imported,${alias}\n`;
    const form = await multipartBody([{ field: 'file', bytes: file, name: 'links.csv' }], { format: 'csv' });
    const res = await h().request('POST', '/api/v1/links/import', { key: person.key, ...form });
    assert.equal(res.status, 200, res.text);
    const listed = await h().request('GET', `/api/v1/links?search=${alias}&by=alias`, { key: person.key });
    const id = listed.body.data[0].id;
    const page = await history(h(), person.key, id);
    assert.deepEqual(
      page.data.map((v: Json) => [v.version, v.via]),
      [[1, 'import']],
    );
  });

  test('restore: the link as that version left it, as a new version via restore', async () => {
    const person = await h().account();
    const pixel = await makePixel(h(), person.key);
    const link = await makeLink(h(), person.key, { url: 'https://example.com/one', title: 'One', pixels: [pixel.id] });
    const put = await h().request('PUT', `/api/v1/links/${link.id}`, {
      key: person.key,
      json: { url: 'https://example.com/two', title: 'Two', pixels: [], password: 'now-with-a-password' },
    });
    assert.equal(put.status, 200, put.text);
    const back = await restore(h(), person.key, link.id, 1);
    assert.equal(back.status, 200, back.text);
    assert.equal(back.body.data.url, 'https://example.com/one');
    assert.equal(back.body.data.title, 'One');
    assert.deepEqual(
      back.body.data.pixels.map((p: Json) => p.id),
      [pixel.id],
    );
    assert.equal(back.body.data.password, false);
    const [restored] = (await history(h(), person.key, link.id)).data;
    assert.equal(restored.version, 3);
    assert.equal(restored.via, 'restore');
    assert.equal(restored.restored_from, 1);
    assert.deepEqual(restored.changes.url, ['https://example.com/two', 'https://example.com/one']);
    assert.equal(restored.changes.password, 'changed');
    assert.equal((await restore(h(), person.key, link.id, 9)).status, 404, 'no such version');
  });

  test('tags: kept by each version, told as [[old], [new]], put back by a restore (a renamed tag followed, a deleted one made again)', async () => {
    const person = await h().account();
    const { key } = person;
    const link = await makeLink(h(), key, { url: 'https://example.com/tags', 'tags[]': ['alpha', 'beta'] });
    const put = await h().request('PUT', `/api/v1/links/${link.id}`, { key, json: { tags: ['beta', 'gamma'] } });
    assert.equal(put.status, 200, put.text);
    const tags = (await h().request('GET', '/api/v1/tags', { key })).body.data as Json[];
    const idOf = (name: string) => tags.find((t) => t.name === name).id;
    const renamed = await h().request('PUT', `/api/v1/tags/${idOf('beta')}`, { key, json: { name: 'bravo' } });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal((await h().request('DELETE', `/api/v1/tags/${idOf('alpha')}`, { key })).status, 200);
    const moved = await h().request('PUT', `/api/v1/links/${link.id}`, {
      key,
      json: { url: 'https://example.com/t2' },
    });
    assert.equal(moved.status, 200, moved.text);

    const [urlOnly, retagged, created] = (await history(h(), key, link.id)).data;
    assert.deepEqual(created.changes.tags, [[], ['alpha', 'beta']]);
    assert.deepEqual(
      retagged.changes,
      {
        tags: [
          ['alpha', 'beta'],
          ['beta', 'gamma'],
        ],
      },
      'a change of tags alone is a version',
    );
    assert.deepEqual(
      urlOnly.changes,
      { url: ['https://example.com/tags', 'https://example.com/t2'] },
      'a rename is no change of the link',
    );

    const back = await restore(h(), key, link.id, 1);
    assert.equal(back.status, 200, back.text);
    assert.deepEqual(back.body.data.tags, ['alpha', 'bravo'], 'beta followed to its new name; alpha made again');
    const [restored] = (await history(h(), key, link.id)).data;
    assert.deepEqual(restored.changes.tags, [
      ['bravo', 'gamma'],
      ['alpha', 'bravo'],
    ]);
    const again = (await h().request('GET', '/api/v1/tags', { key })).body.data as Json[];
    assert.deepEqual(again.map((t) => t.name).sort(), ['alpha', 'bravo', 'gamma']);
    assert.notEqual(again.find((t) => t.name === 'alpha').id, idOf('alpha'), 'a new tag of the old name');
    assert.equal(again.find((t) => t.name === 'bravo').id, idOf('beta'));
  });

  test('restore: an alias taken since is a 422 naming alias; a takedown stays', async () => {
    const person = await h().account();
    const first = unique('was');
    const link = await makeLink(h(), person.key, { url: 'https://example.com/x', alias: first });
    const renamed = await h().request('PUT', `/api/v1/links/${link.id}`, {
      key: person.key,
      json: { alias: unique('now') },
    });
    assert.equal(renamed.status, 200, renamed.text);
    await makeLink(h(), person.key, { url: 'https://example.com/y', alias: first });
    const refused = await restore(h(), person.key, link.id, 1);
    assert.equal(refused.status, 422, refused.text);
    assert.ok(refused.body.message.alias, refused.text);

    const other = await makeLink(h(), person.key, { url: 'https://example.com/z' });
    await h().server.container.admin.setLinkDisabled(other.id, true);
    const kept = await restore(h(), person.key, other.id, 1);
    assert.equal(kept.status, 200, kept.text);
    assert.equal(kept.body.data.disabled, 1, 'a restore never lifts an operator takedown');
  });

  test('viewers read the history and cannot restore; another workspace and a deleted link are not found', async () => {
    const owner: Person = await h().account();
    const team = await makeWorkspace(h(), owner);
    const ownerKey = await makeKey(h(), owner, team.id);
    const viewer: Person = await h().account();
    await addMember(h(), owner, team.id, viewer, 'viewer');
    const viewerKey = await makeKey(h(), viewer, team.id);
    const link = await makeLink(h(), ownerKey, { url: 'https://example.com/team' });
    const seen = await history(h(), viewerKey, link.id);
    assert.equal(seen.data[0].actor.user_id, owner.id);
    assert.equal((await restore(h(), viewerKey, link.id, 1)).status, 403);

    const stranger = await h().account();
    assert.equal((await h().request('GET', `/api/v1/links/${link.id}/history`, { key: stranger.key })).status, 404);
    assert.equal((await restore(h(), stranger.key, link.id, 1)).status, 404);

    assert.equal((await h().request('DELETE', `/api/v1/links/${link.id}`, { key: ownerKey })).status, 200);
    assert.equal((await h().request('GET', `/api/v1/links/${link.id}/history`, { key: ownerKey })).status, 404);
    assert.equal((await restore(h(), ownerKey, link.id, 1)).status, 404);
  });
});
