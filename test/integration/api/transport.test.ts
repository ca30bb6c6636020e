import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Reply } from '../../support/harness.ts';

/** A clock that can be made to fail, to provoke an unexpected error inside a request. */
let clockFails = false;
const clock = {
  now: () => {
    if (clockFails) throw new Error('clock exploded at /secret/path.ts:12');
    return Date.now();
  },
};

const pixel = { name: 'P', type: 'bing', value: 'abc' };

function assertNoStack(res: Reply, where: string): void {
  assert.doesNotMatch(res.text, /\bat .+:\d+:\d+|node_modules|\.ts:\d+|"stack"|Error:/, `${where}: ${res.text}`);
}

onEachEngine(
  'API transport',
  (h) => {
    test('form and JSON bodies both work, with bracket lists and arrays', async () => {
      const { key } = await h().account();
      const form = await h().request('POST', '/api/v1/pixels', { key, form: 'name=Form+one&type=facebook&value=f1' });
      assert.equal(form.status, 201);
      const json = await h().request('POST', '/api/v1/pixels', {
        key,
        json: { name: 'Json one', type: 'twitter', value: 'j1' },
      });
      assert.equal(json.status, 201);
      assert.equal(json.body.data.name, 'Json one');
      const charset = await h().request('POST', '/api/v1/spaces', {
        key,
        body: JSON.stringify({ name: 'Ünïcode ✓', color: 2 }),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      assert.equal(charset.status, 201);
      assert.equal(charset.body.data.name, 'Ünïcode ✓');
      assert.match(charset.headers.get('content-type') ?? '', /^application\/json; charset=utf-8/);

      const ids = [form.body.data.id, json.body.data.id].sort();
      for (const body of [
        `url=https%3A%2F%2Fexample.com&pixels%5B%5D=${ids[0]}&pixels%5B%5D=${ids[1]}`,
        `url=https%3A%2F%2Fexample.com&pixels%5B0%5D=${ids[0]}&pixels%5B1%5D=${ids[1]}`,
      ]) {
        const link = await h().request('POST', '/api/v1/links', { key, form: body });
        assert.equal(link.status, 201, link.text);
        assert.deepEqual(link.body.data.pixels.map((p: { id: number }) => p.id).sort(), ids);
      }
      const link = await h().request('POST', '/api/v1/links', {
        key,
        json: { url: 'https://example.com', pixels: ids },
      });
      assert.equal(link.status, 201);
      assert.equal(link.body.data.pixels.length, 2);
    });

    test('PATCH does what PUT does', async () => {
      const { key } = await h().account();
      const made = await h().request('POST', '/api/v1/pixels', { key, form: pixel });
      const put = await h().request('PUT', `/api/v1/pixels/${made.body.data.id}`, { key, form: { name: 'Same' } });
      const patch = await h().request('PATCH', `/api/v1/pixels/${made.body.data.id}`, { key, form: { name: 'Same' } });
      assert.equal(put.status, 200);
      assert.equal(patch.status, 200);
      assert.equal(patch.body.data.name, put.body.data.name);
    });

    test('a write with any other content type is a 415, and writes nothing', async () => {
      const { key } = await h().account();
      const made = await h().request('POST', '/api/v1/spaces', { key, form: { name: 'S' } });
      const types = ['text/plain', 'multipart/form-data; boundary=xyz', 'application/xml', 'text/html'];
      for (const type of types) {
        for (const [method, path] of [
          ['POST', '/api/v1/spaces'],
          ['PUT', `/api/v1/spaces/${made.body.data.id}`],
          ['PATCH', `/api/v1/spaces/${made.body.data.id}`],
        ]) {
          const body = type.startsWith('multipart')
            ? '--xyz\r\nContent-Disposition: form-data; name="name"\r\n\r\nM\r\n--xyz--\r\n'
            : 'name=M';
          const res = await h().request(method!, path!, { key, body, headers: { 'content-type': type } });
          assert.equal(res.status, 415, `${method} ${type}`);
          assert.deepEqual(res.body, { message: 'Unsupported Media Type.', status: 415 });
        }
      }
      const list = await h().request('GET', '/api/v1/spaces', { key });
      assert.deepEqual(
        list.body.data.map((s: { name: string }) => s.name),
        ['S'],
      );
    });

    test('malformed JSON is a 400, non-UTF-8 JSON a 4xx, a JSON array or scalar a 422', async () => {
      const { key } = await h().account();
      const headers = { 'content-type': 'application/json' };
      for (const body of ['{"name": ', '{name: 1}', "{'a':1}", 'nul']) {
        const res = await h().request('POST', '/api/v1/pixels', { key, body, headers });
        assert.equal(res.status, 400, body);
        assert.deepEqual(res.body, { message: 'The request body is not valid JSON.', status: 400 });
      }
      const bytes = new Uint8Array([0x7b, 0x22, 0x75, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]).buffer;
      const latin = await h().request('POST', '/api/v1/pixels', { key, body: bytes, headers });
      assert.ok(latin.status >= 400 && latin.status < 500, String(latin.status));
      assert.equal(latin.body.status, latin.status);
      for (const json of [[pixel], 'text', 42, true]) {
        const res = await h().request('POST', '/api/v1/pixels', { key, json });
        assert.equal(res.status, 422, JSON.stringify(json));
        assert.equal(res.body.status, 422);
        assert.equal(typeof res.body.message, 'object');
      }
      const arrayPut = await h().request('PUT', '/api/v1/links/1', { key, json: [] });
      assert.ok([404, 422].includes(arrayPut.status));
      assert.equal((await h().request('GET', '/api/v1/pixels', { key })).body.meta.total, 0);
    });

    test('__proto__ and constructor.prototype in a JSON body are refused as invalid JSON; in a form, dropped', async () => {
      const { key } = await h().account();
      const headers = { 'content-type': 'application/json' };
      const fields = '"name":"P","type":"bing","value":"abc"';
      for (const body of [
        `{${fields},"__proto__":{"x":1}}`,
        `{${fields},"constructor":{"prototype":{"x":1}}}`,
        `{${fields},"nested":{"__proto__":{"x":1}}}`,
        `[{"constructor":{"prototype":{"x":1}}}]`,
      ]) {
        const res = await h().request('POST', '/api/v1/pixels', { key, body, headers });
        assert.equal(res.status, 400, body);
        assert.deepEqual(res.body, { message: 'The request body is not valid JSON.', status: 400 }, body);
      }
      // qs drops keys that would reach a prototype: the form reads as missing fields.
      for (const form of [
        '__proto__[name]=P&__proto__[x]=1',
        'constructor[prototype][name]=P&constructor[prototype][x]=1',
      ]) {
        const res = await h().request('POST', '/api/v1/spaces', { key, form });
        assert.equal(res.status, 422, form);
        assert.deepEqual(Object.keys(res.body.message), ['name'], form);
      }
      assert.equal(({} as Record<string, unknown>).x, undefined, 'Object.prototype is untouched');
      assert.equal((await h().request('GET', '/api/v1/pixels', { key })).body.meta.total, 0);
    });

    test('an empty or absent body is read as no fields', async () => {
      const { key } = await h().account();
      const empty = await h().request('POST', '/api/v1/spaces', {
        key,
        body: '',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(empty.status, 422);
      assert.deepEqual(Object.keys(empty.body.message), ['name']);
      const none = await h().request('POST', '/api/v1/spaces', { key });
      assert.equal(none.status, 422);
      assert.deepEqual(Object.keys(none.body.message), ['name']);
    });

    test('CORS is open on the API, preflight needs no key', async () => {
      const { key } = await h().account();
      const origin = { origin: 'https://client.example' };
      const read = await h().request('GET', '/api/v1/account', { key, headers: origin });
      assert.equal(read.headers.get('access-control-allow-origin'), '*');
      const denied = await h().request('GET', '/api/v1/account', { headers: origin });
      assert.equal(denied.status, 401);
      assert.equal(denied.headers.get('access-control-allow-origin'), '*');
      for (const path of ['/api/v1/pixels', '/api/v1/links/1', '/pixels/1/destroy']) {
        const pre = await h().request('OPTIONS', path, {
          headers: {
            ...origin,
            'access-control-request-method': 'DELETE',
            'access-control-request-headers': 'authorization,content-type',
          },
        });
        assert.ok(pre.status === 204 || pre.status === 200, `${path}: ${pre.status}`);
        assert.equal(pre.headers.get('access-control-allow-origin'), '*');
        const methods = (pre.headers.get('access-control-allow-methods') ?? '').split(',').map((m) => m.trim());
        for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
          assert.ok(methods.includes(m), `${m} in ${methods.join()}`);
        assert.match((pre.headers.get('access-control-allow-headers') ?? '').toLowerCase(), /authorization/);
      }
      const health = await h().request('GET', '/health', { headers: origin });
      assert.equal(health.headers.get('access-control-allow-origin'), null, 'only the API is open');
    });

    test('an unknown API path or method is a 404 JSON envelope', async () => {
      const { key } = await h().account();
      for (const [method, path] of [
        ['GET', '/api/v1/nothing'],
        ['GET', '/api/v2/links'],
        ['GET', '/api/'],
        ['POST', '/api/v1/pixels/1'],
        ['GET', '/api/v1/pixels/1/extra'],
        ['DELETE', '/api/v1/pixels'],
        ['GET', '/pixels/1/destroy'],
      ]) {
        const res = await h().request(method!, path!, { key });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.deepEqual(res.body, { message: 'Resource not found.', status: 404 }, `${method} ${path}`);
      }
    });

    test('GET /health answers ok', async () => {
      const res = await h().request('GET', '/health');
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'ok');
    });

    test('error bodies never carry a stack trace; an unexpected failure is a plain 500', async () => {
      const { key } = await h().account();
      const errors = [
        await h().request('GET', '/api/v1/pixels/999', { key }),
        await h().request('GET', '/api/v1/pixels'),
        await h().request('POST', '/api/v1/pixels', { key, json: { type: 'tiktok' } }),
        await h().request('POST', '/api/v1/pixels', {
          key,
          body: '{',
          headers: { 'content-type': 'application/json' },
        }),
        await h().request('POST', '/api/v1/pixels', { key, body: 'x', headers: { 'content-type': 'text/plain' } }),
        await h().request('GET', '/api/v1/pixels?per_page=1000', { key }),
      ];
      for (const res of errors) assertNoStack(res, String(res.status));
      clockFails = true;
      try {
        const res = await h().request('POST', '/api/v1/pixels', { key, form: pixel });
        assert.equal(res.status, 500);
        assert.deepEqual(res.body, { message: 'Server Error', status: 500 });
        assertNoStack(res, '500');
      } finally {
        clockFails = false;
      }
    });
  },
  { overrides: { clock } },
);

onEachEngine(
  'API transport: body limit',
  (h) => {
    test('a body over BODY_LIMIT_BYTES is a 413; one under it is read', async () => {
      const { key } = await h().account();
      const big = await h().request('POST', '/api/v1/pixels', { key, form: { ...pixel, value: 'a'.repeat(3000) } });
      assert.equal(big.status, 413);
      assert.deepEqual(big.body, { message: 'Payload Too Large.', status: 413 });
      const bigJson = await h().request('POST', '/api/v1/links', {
        key,
        json: { url: `https://example.com/${'a'.repeat(2100)}` },
      });
      assert.equal(bigJson.status, 413);
      const small = await h().request('POST', '/api/v1/pixels', { key, form: pixel });
      assert.equal(small.status, 201);
      assert.equal((await h().request('GET', '/api/v1/pixels', { key })).body.meta.total, 1);
    });
  },
  { overrides: { tuning: { BODY_LIMIT_BYTES: 2048 } } },
);
