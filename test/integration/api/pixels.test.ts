import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';

const TYPES = [
  'adroll',
  'bing',
  'facebook',
  'google-ads',
  'google-analytics',
  'google-tag-manager',
  'linkedin',
  'pinterest',
  'quora',
  'twitter',
] as const;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function makePixel(h: Harness, key: string, fields: Record<string, unknown>) {
  const res = await h.request('POST', '/api/v1/pixels', { key, form: { type: 'facebook', value: 'v1', ...fields } });
  assert.equal(res.status, 201, res.text);
  return res.body.data as { id: number; name: string; type: string; value: string };
}

async function countPixels(h: Harness, key: string): Promise<number> {
  const res = await h.request('GET', '/api/v1/pixels', { key });
  assert.equal(res.status, 200);
  return res.body.meta.total as number;
}

onEachEngine('API pixels', (h) => {
  test('create, read, update (PUT and PATCH) and list a pixel with the contract record', async () => {
    const { key } = await h().account();
    const made = await h().request('POST', '/api/v1/pixels', {
      key,
      form: { name: 'FB main', type: 'facebook', value: '123456789' },
    });
    assert.equal(made.status, 201);
    assert.equal(made.body.status, 201);
    const p = made.body.data;
    assert.deepEqual(Object.keys(p).sort(), ['created_at', 'id', 'name', 'type', 'updated_at', 'value']);
    assert.equal(typeof p.id, 'number');
    assert.deepEqual([p.name, p.type, p.value], ['FB main', 'facebook', '123456789']);
    assert.match(p.created_at, ISO);
    assert.match(p.updated_at, ISO);

    const read = await h().request('GET', `/api/v1/pixels/${p.id}`, { key });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, { data: p, status: 200 });

    const put = await h().request('PUT', `/api/v1/pixels/${p.id}`, {
      key,
      form: { name: 'Renamed', type: 'twitter', value: 'abc_DEF-1' },
    });
    assert.equal(put.status, 200);
    assert.equal(put.body.status, 200);
    assert.deepEqual(
      [put.body.data.name, put.body.data.type, put.body.data.value],
      ['Renamed', 'twitter', 'abc_DEF-1'],
    );
    assert.equal(put.body.data.created_at, p.created_at);

    const patch = await h().request('PATCH', `/api/v1/pixels/${p.id}`, { key, json: { value: 'only-value' } });
    assert.equal(patch.status, 200);
    assert.deepEqual(
      [patch.body.data.name, patch.body.data.type, patch.body.data.value],
      ['Renamed', 'twitter', 'only-value'],
    );

    const list = await h().request('GET', '/api/v1/pixels', { key });
    assert.equal(list.status, 200);
    assert.equal(list.body.data.length, 1);
    assert.deepEqual(list.body.data[0], patch.body.data);
  });

  test('every one of the ten types is accepted', async () => {
    const { key } = await h().account();
    for (const type of TYPES) {
      const p = await makePixel(h(), key, { name: `p-${type}`, type, value: `id-${type}` });
      assert.equal(p.type, type);
    }
    const list = await h().request('GET', '/api/v1/pixels?per_page=100', { key });
    assert.deepEqual(list.body.data.map((p: { type: string }) => p.type).sort(), [...TYPES].sort());
  });

  test('delete at the seed path and at the /api/v1 path', async () => {
    const { key } = await h().account();
    const a = await makePixel(h(), key, { name: 'a' });
    const b = await makePixel(h(), key, { name: 'b' });
    const seed = await h().request('DELETE', `/pixels/${a.id}/destroy`, { key });
    assert.equal(seed.status, 200);
    assert.deepEqual(seed.body, { id: a.id, object: 'pixel', deleted: true, status: 200 });
    const api = await h().request('DELETE', `/api/v1/pixels/${b.id}`, { key });
    assert.deepEqual(api.body, { id: b.id, object: 'pixel', deleted: true, status: 200 });
    for (const id of [a.id, b.id]) {
      assert.equal((await h().request('GET', `/api/v1/pixels/${id}`, { key })).status, 404);
      const again = await h().request('DELETE', `/pixels/${id}/destroy`, { key });
      assert.equal(again.status, 404);
      assert.deepEqual(again.body, { message: 'Resource not found.', status: 404 });
    }
  });

  test('unknown and malformed ids answer 404', async () => {
    const { key } = await h().account();
    for (const path of ['/api/v1/pixels/999999', '/api/v1/pixels/abc', '/api/v1/pixels/0', '/api/v1/pixels/-1']) {
      const res = await h().request('GET', path, { key });
      assert.equal(res.status, 404, path);
      assert.deepEqual(res.body, { message: 'Resource not found.', status: 404 });
    }
    assert.equal((await h().request('PUT', '/api/v1/pixels/999999', { key, form: { name: 'x' } })).status, 404);
  });

  test('name is required, at most 32, unique per account ignoring case', async () => {
    const { key } = await h().account();
    const other = await h().account();
    const missing = await h().request('POST', '/api/v1/pixels', { key, form: { type: 'bing', value: 'x' } });
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.body.message.name, ['The name field is required.']);
    const blank = await h().request('POST', '/api/v1/pixels', { key, form: { name: '   ', type: 'bing', value: 'x' } });
    assert.equal(blank.status, 422);
    assert.ok(blank.body.message.name);

    const long = await h().request('POST', '/api/v1/pixels', {
      key,
      form: { name: 'n'.repeat(33), type: 'bing', value: 'x' },
    });
    assert.equal(long.status, 422);
    assert.ok(long.body.message.name);
    await makePixel(h(), key, { name: 'n'.repeat(32) });

    await makePixel(h(), key, { name: 'Shared' });
    const dup = await h().request('POST', '/api/v1/pixels', {
      key,
      form: { name: 'sHARED', type: 'bing', value: 'x' },
    });
    assert.equal(dup.status, 422);
    assert.deepEqual(dup.body.message.name, ['The name has already been taken.']);
    // Another account may use the same name.
    await makePixel(h(), other.key, { name: 'Shared' });

    // Renaming onto a taken name is refused; keeping one's own name is not.
    const second = await makePixel(h(), key, { name: 'second' });
    const clash = await h().request('PUT', `/api/v1/pixels/${second.id}`, { key, form: { name: 'SHARED' } });
    assert.equal(clash.status, 422);
    assert.ok(clash.body.message.name);
    const same = await h().request('PUT', `/api/v1/pixels/${second.id}`, { key, form: { name: 'SECOND' } });
    assert.equal(same.status, 200);
    assert.equal(same.body.data.name, 'SECOND');
    assert.equal(await countPixels(h(), key), 3);
  });

  test('bad type and bad value are refused and write nothing', async () => {
    const { key } = await h().account();
    const bad = [
      { name: 't', type: 'tiktok', value: 'x' },
      { name: 't', value: 'x' },
      { name: 't', type: 'facebook', value: '<script>' },
      { name: 't', type: 'facebook', value: '"); alert(1); ("' },
      { name: 't', type: 'facebook', value: 'a b' },
      { name: 't', type: 'facebook', value: 'x'.repeat(256) },
      { name: 't', type: 'facebook' },
    ];
    for (const form of bad) {
      const res = await h().request('POST', '/api/v1/pixels', { key, form });
      assert.equal(res.status, 422, JSON.stringify(form));
      assert.equal(res.body.status, 422);
      assert.equal(typeof res.body.message, 'object');
    }
    const tiktok = await h().request('POST', '/api/v1/pixels', { key, form: bad[0]! });
    assert.deepEqual(Object.keys(tiktok.body.message), ['type']);
    const script = await h().request('POST', '/api/v1/pixels', { key, form: bad[2]! });
    assert.deepEqual(Object.keys(script.body.message), ['value']);
    // Every bad field is listed at once.
    const all = await h().request('POST', '/api/v1/pixels', { key, json: { name: '', type: 'tiktok', value: '<b>' } });
    assert.equal(all.status, 422);
    assert.deepEqual(Object.keys(all.body.message).sort(), ['name', 'type', 'value']);
    assert.equal(await countPixels(h(), key), 0);

    const p = await makePixel(h(), key, { name: 'keep', value: 'good' });
    for (const form of [
      { type: 'tiktok' },
      { value: '<script>' },
      { name: 'x'.repeat(33) },
      { name: 'ok', value: '<x>' },
    ]) {
      const res = await h().request('PUT', `/api/v1/pixels/${p.id}`, { key, form });
      assert.equal(res.status, 422, JSON.stringify(form));
    }
    const after = await h().request('GET', `/api/v1/pixels/${p.id}`, { key });
    assert.deepEqual(after.body.data, p);
  });

  test('list filters: search, type, sort, per_page and the pagination envelope', async () => {
    const { key } = await h().account();
    const made = [];
    for (let i = 1; i <= 12; i++) {
      made.push(
        await makePixel(h(), key, { name: i <= 3 ? `Alpha ${i}` : `beta ${i}`, type: i % 2 ? 'bing' : 'quora' }),
      );
    }
    const search = await h().request('GET', '/api/v1/pixels?search=ALPHA', { key });
    assert.deepEqual(search.body.data.map((p: { name: string }) => p.name).sort(), ['Alpha 1', 'Alpha 2', 'Alpha 3']);
    const byType = await h().request('GET', '/api/v1/pixels?type=quora&per_page=100', { key });
    assert.equal(byType.body.data.length, 6);
    assert.ok(byType.body.data.every((p: { type: string }) => p.type === 'quora'));
    assert.equal((await h().request('GET', '/api/v1/pixels?type=tiktok', { key })).status, 422);

    const desc = await h().request('GET', '/api/v1/pixels', { key });
    assert.equal(desc.body.data[0].id, made[11]!.id);
    const asc = await h().request('GET', '/api/v1/pixels?sort=asc', { key });
    assert.equal(asc.body.data[0].id, made[0]!.id);
    assert.equal((await h().request('GET', '/api/v1/pixels?sort=max', { key })).status, 422);

    const first = await h().request('GET', '/api/v1/pixels?sort=asc', { key });
    assert.equal(first.body.data.length, 10);
    assert.deepEqual(first.body.meta, {
      current_page: 1,
      from: 1,
      last_page: 2,
      path: 'http://short.test/api/v1/pixels',
      per_page: 10,
      to: 10,
      total: 12,
    });
    assert.equal(first.body.links.prev, null);
    assert.equal(first.body.links.first, 'http://short.test/api/v1/pixels?sort=asc&page=1');
    assert.equal(first.body.links.next, 'http://short.test/api/v1/pixels?sort=asc&page=2');
    const second = await h().request('GET', '/api/v1/pixels?sort=asc&page=2', { key });
    assert.deepEqual(
      second.body.data.map((p: { id: number }) => p.id),
      [made[10]!.id, made[11]!.id],
    );
    assert.equal(second.body.meta.from, 11);
    assert.equal(second.body.meta.to, 12);
    assert.equal(second.body.links.next, null);

    const big = await h().request('GET', '/api/v1/pixels?per_page=100', { key });
    assert.equal(big.body.data.length, 12);
    assert.equal(big.body.meta.per_page, 100);
    for (const q of ['per_page=9', 'per_page=101', 'per_page=abc', 'page=0']) {
      assert.equal((await h().request('GET', `/api/v1/pixels?${q}`, { key })).status, 422, q);
    }
  });

  test('deleting a pixel detaches it from links', async () => {
    const { key } = await h().account();
    const a = await makePixel(h(), key, { name: 'a' });
    const b = await makePixel(h(), key, { name: 'b' });
    const link = await h().request('POST', '/api/v1/links', {
      key,
      form: { url: 'https://example.com/p', pixels: [a.id, b.id] },
    });
    assert.equal(link.status, 201, link.text);
    assert.deepEqual(link.body.data.pixels.map((p: { id: number }) => p.id).sort(), [a.id, b.id].sort());
    assert.equal((await h().request('DELETE', `/pixels/${a.id}/destroy`, { key })).status, 200);
    const read = await h().request('GET', `/api/v1/links/${link.body.data.id}`, { key });
    assert.equal(read.status, 200);
    assert.deepEqual(
      read.body.data.pixels.map((p: { id: number }) => p.id),
      [b.id],
    );
  });
});
