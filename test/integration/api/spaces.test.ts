import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function makeSpace(h: Harness, key: string, fields: Record<string, unknown>) {
  const res = await h.request('POST', '/api/v1/spaces', { key, form: fields });
  assert.equal(res.status, 201, res.text);
  return res.body.data as { id: number; name: string; color: number; created_at: string; updated_at: string };
}

async function countSpaces(h: Harness, key: string): Promise<number> {
  return (await h.request('GET', '/api/v1/spaces', { key })).body.meta.total as number;
}

onEachEngine('API spaces', (h) => {
  test('create, read, update, list and delete a space', async () => {
    const { key } = await h().account();
    const made = await h().request('POST', '/api/v1/spaces', { key, form: { name: 'Marketing', color: '3' } });
    assert.equal(made.status, 201);
    assert.equal(made.body.status, 201);
    const s = made.body.data;
    assert.deepEqual(Object.keys(s).sort(), ['color', 'created_at', 'id', 'name', 'updated_at']);
    assert.deepEqual([typeof s.id, s.name, s.color], ['number', 'Marketing', 3]);
    assert.match(s.created_at, ISO);
    assert.match(s.updated_at, ISO);

    const read = await h().request('GET', `/api/v1/spaces/${s.id}`, { key });
    assert.deepEqual(read.body, { data: s, status: 200 });

    const put = await h().request('PUT', `/api/v1/spaces/${s.id}`, { key, form: { name: 'Sales', color: 6 } });
    assert.equal(put.status, 200);
    assert.deepEqual([put.body.data.name, put.body.data.color], ['Sales', 6]);
    const patch = await h().request('PATCH', `/api/v1/spaces/${s.id}`, { key, json: { color: 1 } });
    assert.equal(patch.status, 200);
    assert.deepEqual([patch.body.data.name, patch.body.data.color], ['Sales', 1]);

    const list = await h().request('GET', '/api/v1/spaces', { key });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data, [patch.body.data]);
    assert.equal(list.body.meta.total, 1);

    const del = await h().request('DELETE', `/api/v1/spaces/${s.id}`, { key });
    assert.deepEqual(del.body, { id: s.id, object: 'space', deleted: true, status: 200 });
    assert.equal((await h().request('GET', `/api/v1/spaces/${s.id}`, { key })).status, 404);
    const again = await h().request('DELETE', `/api/v1/spaces/${s.id}`, { key });
    assert.deepEqual(again.body, { message: 'Resource not found.', status: 404 });
  });

  test('the seed-style delete path works for spaces too', async () => {
    const { key } = await h().account();
    const s = await makeSpace(h(), key, { name: 'x' });
    const del = await h().request('DELETE', `/spaces/${s.id}/destroy`, { key });
    assert.deepEqual(del.body, { id: s.id, object: 'space', deleted: true, status: 200 });
  });

  test('color defaults to 1 and must be 1..6', async () => {
    const { key } = await h().account();
    assert.equal((await makeSpace(h(), key, { name: 'default' })).color, 1);
    for (const color of [1, 2, 3, 4, 5, 6]) {
      assert.equal((await makeSpace(h(), key, { name: `c${color}`, color })).color, color);
    }
    for (const color of ['0', '7', '-1', 'red', '2.5']) {
      const res = await h().request('POST', '/api/v1/spaces', { key, form: { name: `bad ${color}`, color } });
      assert.equal(res.status, 422, color);
      assert.deepEqual(Object.keys(res.body.message), ['color']);
    }
    assert.equal(await countSpaces(h(), key), 7);
    const s = await makeSpace(h(), key, { name: 'keep', color: 2 });
    for (const color of [0, 7]) {
      const res = await h().request('PUT', `/api/v1/spaces/${s.id}`, { key, json: { color } });
      assert.equal(res.status, 422);
    }
    assert.equal((await h().request('GET', `/api/v1/spaces/${s.id}`, { key })).body.data.color, 2);
  });

  test('name is required, at most 32 and unique per account ignoring case', async () => {
    const { key } = await h().account();
    const other = await h().account();
    const missing = await h().request('POST', '/api/v1/spaces', { key, form: { color: 2 } });
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.body.message.name, ['The name field is required.']);
    const long = await h().request('POST', '/api/v1/spaces', { key, form: { name: 's'.repeat(33) } });
    assert.equal(long.status, 422);
    assert.ok(long.body.message.name);
    await makeSpace(h(), key, { name: 's'.repeat(32) });

    await makeSpace(h(), key, { name: 'Team' });
    const dup = await h().request('POST', '/api/v1/spaces', { key, form: { name: 'TEAM' } });
    assert.equal(dup.status, 422);
    assert.deepEqual(dup.body.message.name, ['The name has already been taken.']);
    await makeSpace(h(), other.key, { name: 'Team' });

    const second = await makeSpace(h(), key, { name: 'Second' });
    assert.equal(
      (await h().request('PUT', `/api/v1/spaces/${second.id}`, { key, form: { name: 'team' } })).status,
      422,
    );
    assert.equal(
      (await h().request('PUT', `/api/v1/spaces/${second.id}`, { key, form: { name: 'second' } })).status,
      200,
    );
    assert.equal(await countSpaces(h(), key), 3);
  });

  test('every bad field is listed at once and nothing is written', async () => {
    const { key } = await h().account();
    const res = await h().request('POST', '/api/v1/spaces', { key, form: { name: '', color: 9 } });
    assert.equal(res.status, 422);
    assert.deepEqual(Object.keys(res.body.message).sort(), ['color', 'name']);
    assert.equal(await countSpaces(h(), key), 0);
  });

  test('list: search, sort, per_page and pages', async () => {
    const { key } = await h().account();
    const made = [];
    for (let i = 1; i <= 11; i++)
      made.push(await makeSpace(h(), key, { name: i === 5 ? 'Special five' : `space ${i}` }));
    const search = await h().request('GET', '/api/v1/spaces?search=SPECIAL', { key });
    assert.deepEqual(
      search.body.data.map((s: { id: number }) => s.id),
      [made[4]!.id],
    );
    const desc = await h().request('GET', '/api/v1/spaces', { key });
    assert.equal(desc.body.data.length, 10);
    assert.equal(desc.body.data[0].id, made[10]!.id);
    assert.equal(desc.body.meta.last_page, 2);
    const asc = await h().request('GET', '/api/v1/spaces?sort=asc&page=2', { key });
    assert.deepEqual(
      asc.body.data.map((s: { id: number }) => s.id),
      [made[10]!.id],
    );
    assert.equal((await h().request('GET', '/api/v1/spaces?per_page=100', { key })).body.data.length, 11);
    assert.equal((await h().request('GET', '/api/v1/spaces?per_page=5', { key })).status, 422);
  });

  test('deleting a space leaves its links without a space', async () => {
    const { key } = await h().account();
    const s = await makeSpace(h(), key, { name: 'Doomed', color: 4 });
    const link = await h().request('POST', '/api/v1/links', {
      key,
      form: { url: 'https://example.com/s', space: s.id },
    });
    assert.equal(link.status, 201, link.text);
    assert.equal(link.body.data.space.id, s.id);
    assert.deepEqual(link.body.data.space, s);
    assert.equal((await h().request('DELETE', `/api/v1/spaces/${s.id}`, { key })).status, 200);
    const read = await h().request('GET', `/api/v1/links/${link.body.data.id}`, { key });
    assert.equal(read.status, 200);
    assert.equal(read.body.data.space, null);
    assert.equal(read.body.data.url, 'https://example.com/s');
  });
});
