// PUT and DELETE /api/v1/links/{id}/qr-logo on both engines: the web page's rules through the API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { multipartBody } from '../../support/multipart.ts';
import { DIRTY_SVG, deepPng, greenPng } from '../../support/qr-logos.ts';

/** The upload as curl sends it: the file under `field` (logo), beside a field the route skips. */
const put = async (h: Harness, key: string, id: number, file: Uint8Array | string | null, field = 'logo') =>
  h.request('PUT', `/api/v1/links/${id}/qr-logo`, {
    key,
    ...(await multipartBody(
      file === null ? [] : [{ field, bytes: file, name: 'logo.bin' }],
      { note: 'kept aside' },
      'PUT',
    )),
  });

onEachEngine('API: QR logo upload', (h) => {
  const link = async (key: string, alias: string) => {
    const reply = await h().request('POST', '/api/v1/links', { key, form: { url: 'https://example.com/logo', alias } });
    return reply.body.data.id as number;
  };

  test('a PNG: 200 with the settings, then drawn in the code; DELETE removes it', async () => {
    const a = await h().account();
    const id = await link(a.key, 'api-logo-png');
    const png = greenPng();
    const done = await put(h(), a.key, id, png);
    assert.equal(done.status, 200, done.text);
    assert.deepEqual(done.body, { data: { id, logo: { type: 'png', bytes: png.length } }, status: 200 });
    const svg = await h().request('GET', `/api/v1/links/${id}/qr`, { key: a.key });
    assert.match(svg.text, /<image href="data:image\/png;base64,/);

    const removed = await h().request('DELETE', `/api/v1/links/${id}/qr-logo`, { key: a.key });
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual(removed.body, { id, object: 'qr_logo', deleted: true, status: 200 });
    const plain = await h().request('GET', `/api/v1/links/${id}/qr`, { key: a.key });
    assert.doesNotMatch(plain.text, /<image/);
    const again = await h().request('DELETE', `/api/v1/links/${id}/qr-logo`, { key: a.key });
    assert.equal(again.status, 200, 'removing no logo is no error');
  });

  test('an SVG is sanitised as on the page, and replaces the PNG', async () => {
    const a = await h().account();
    const id = await link(a.key, 'api-logo-svg');
    assert.equal((await put(h(), a.key, id, greenPng())).status, 200);
    const done = await put(h(), a.key, id, DIRTY_SVG);
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.data.logo.type, 'svg');
    const svg = await h().request('GET', `/api/v1/links/${id}/qr`, { key: a.key });
    const embedded = /<image href="data:image\/svg\+xml;base64,([^"]+)"/.exec(svg.text)?.[1] ?? '';
    const logo = Buffer.from(embedded, 'base64').toString('utf8');
    assert.match(logo, /<circle/);
    assert.doesNotMatch(logo, /script|onload|alert/);
    assert.equal(done.body.data.logo.bytes, Buffer.byteLength(logo));
  });

  test('a bad file: 422 naming logo, and the logo before it is kept', async () => {
    const a = await h().account();
    const id = await link(a.key, 'api-logo-bad');
    assert.equal((await put(h(), a.key, id, greenPng())).status, 200);
    const cases: [string, Uint8Array | string | null, string?][] = [
      ['no file', null],
      ['another field', greenPng(), 'file'],
      ['text', 'hello'],
      ['a PNG cut short', greenPng().subarray(0, 60)],
      ['an SVG cut short', '<svg xmlns="http://www.w3.org/2000/svg"'],
      ['over 100 KB', Buffer.alloc(100 * 1024 + 1, 0x20)],
    ];
    for (const [name, file, field] of cases) {
      const reply = await put(h(), a.key, id, file, field);
      assert.equal(reply.status, 422, `${name}: ${reply.text}`);
      assert.deepEqual(Object.keys(reply.body.message), ['logo'], name);
    }
    const json = await h().request('PUT', `/api/v1/links/${id}/qr-logo`, { key: a.key, json: { logo: 'x' } });
    assert.ok([415, 422].includes(json.status), json.text);
    const svg = await h().request('GET', `/api/v1/links/${id}/qr`, { key: a.key });
    assert.match(svg.text, /data:image\/png;base64,/, 'the PNG stays');
  });

  // Issue 48, finding 4: what a PNG takes decoded is read from its header, bit depth and channels
  // counted, and one over the bound is refused before a byte is inflated.
  test('a PNG that would take more than 4 MB decoded: 422 naming logo, the logo before it kept', async () => {
    const a = await h().account();
    const id = await link(a.key, 'api-logo-deep');
    const before = greenPng();
    assert.equal((await put(h(), a.key, id, before)).status, 200);
    for (const [name, file] of [
      ['1024 px RGBA at 16 bits', deepPng(1024, 16)],
      ['1024 px RGB at 16 bits', deepPng(1024, 16, 2)],
    ] as const) {
      assert.ok(file.length < 100 * 1024, `${name}: under the file limit`);
      const reply = await put(h(), a.key, id, file);
      assert.equal(reply.status, 422, `${name}: ${reply.text}`);
      assert.deepEqual(reply.body.message, {
        logo: [
          'The logo must take at most 4 MB decoded (width × height × channels × bytes per sample): save it at 8 bits per sample, or smaller.',
        ],
      });
    }
    const kept = await h()
      .server.container.storage.db.selectFrom('link_qr_logos')
      .select('bytes')
      .where('link_id', '=', id)
      .executeTakeFirstOrThrow();
    assert.ok(Buffer.from(kept.bytes).equals(before), 'the logo stays what it was');
    const within = deepPng(724, 16);
    const done = await put(h(), a.key, id, within);
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.data.logo.bytes, within.length);
  });

  test("another account's link, or none: 404, and nothing written", async () => {
    const a = await h().account();
    const b = await h().account();
    const id = await link(a.key, 'api-logo-mine');
    assert.equal((await put(h(), b.key, id, greenPng())).status, 404);
    assert.equal((await h().request('DELETE', `/api/v1/links/${id}/qr-logo`, { key: b.key })).status, 404);
    assert.equal((await put(h(), a.key, 2_000_000_000, greenPng())).status, 404);
    assert.equal((await put(h(), '', id, greenPng())).status, 401);
    const svg = await h().request('GET', `/api/v1/links/${id}/qr`, { key: a.key });
    assert.doesNotMatch(svg.text, /<image/);
    assert.equal((await put(h(), a.key, id, greenPng())).status, 200);
    assert.equal((await h().request('DELETE', `/api/v1/links/${id}/qr-logo`, { key: b.key })).status, 404);
    assert.match(
      (await h().request('GET', `/api/v1/links/${id}/qr`, { key: a.key })).text,
      /<image/,
      "b's DELETE left a's logo",
    );
  });
});
