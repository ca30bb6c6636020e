// PUT and DELETE /api/v1/links/{id}/social-card/image on both engines, the public route that
// serves the image, and the unfurler's page naming it (docs/design/social-cards.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { multipartBody } from '../../support/multipart.ts';
import { deepPng, greenPng } from '../../support/qr-logos.ts';
import { visit } from '../redirect/redirect-support.ts';

const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

/** The upload as curl sends it: the file under `field` (image), beside a field the route skips. */
const put = async (h: Harness, key: string, id: number, file: Uint8Array | string | null, field = 'image') =>
  h.request('PUT', `/api/v1/links/${id}/social-card/image`, {
    key,
    ...(await multipartBody(
      file === null ? [] : [{ field, bytes: file, name: 'card.bin' }],
      { note: 'kept aside' },
      'PUT',
    )),
  });

/** A PNG with a text chunk after its header: what re-encoding must drop. */
function pngWithText(): Buffer {
  const png = greenPng();
  const data = Buffer.from('Comment\0secret words', 'latin1');
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  data.copy(chunk, 8);
  // The CRC is not checked by the header reader, and pngjs skips ancillary chunks it cannot verify.
  return Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]);
}

/** The public route's answer, its bytes whole. */
async function fetchImage(h: Harness, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(new URL(path, h.baseUrl), { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

onEachEngine('API: social card image upload', (h) => {
  const link = async (key: string, form: Record<string, unknown> = {}) => {
    const reply = await h().request('POST', '/api/v1/links', {
      key,
      form: { url: 'https://example.com/card', 'social_card[title]': 'Sale', ...form },
    });
    assert.equal(reply.status, 201, reply.text);
    return reply.body.data as { id: number; alias: string };
  };
  const record = async (key: string, id: number) =>
    (await h().request('GET', `/api/v1/links/${id}`, { key })).body.data;

  test('a PNG: 200 with the record naming the public address, served re-encoded; DELETE removes both', async () => {
    const a = await h().account();
    const { id, alias } = await link(a.key);
    const done = await put(h(), a.key, id, pngWithText());
    assert.equal(done.status, 200, done.text);
    const image: string = done.body.data.social_card.image;
    assert.match(image, new RegExp(`^${h().config.APP_URL}/public/cards/${id}/[0-9a-f]{16}\\.png$`));
    assert.equal(done.body.data.social_card.title, 'Sale', 'the rest of the card is kept');
    assert.equal((await record(a.key, id)).social_card.image, image);

    const path = new URL(image).pathname;
    const served = await fetchImage(h(), path);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(served.headers.get('cache-control'), 'public, max-age=3600');
    const etag = served.headers.get('etag');
    assert.equal(etag, `"${/([0-9a-f]{16})\.png$/.exec(path)?.[1]}"`);
    assert.doesNotMatch(served.bytes.toString('latin1'), /secret words|tEXt/, 'only the pixels are kept');
    const pixels = PNG.sync.read(served.bytes);
    assert.deepEqual([pixels.width, pixels.height, ...pixels.data.subarray(0, 4)], [40, 40, 20, 160, 60, 255]);
    const again = await fetchImage(h(), path, { 'if-none-match': etag });
    assert.equal(again.status, 304);

    const card = await visit(h(), `/${alias}`, { 'user-agent': SLACK });
    assert.match(card.text, new RegExp(`<meta property="og:image" content="${image}">`));
    assert.match(card.text, new RegExp(`<meta name="twitter:image" content="${image}">`));

    const removed = await h().request('DELETE', `/api/v1/links/${id}/social-card/image`, { key: a.key });
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual(removed.body, { id, object: 'social_card_image', deleted: true, status: 200 });
    assert.deepEqual((await record(a.key, id)).social_card, { title: 'Sale', description: null, image: null });
    assert.equal((await fetchImage(h(), path)).status, 404);
    const twice = await h().request('DELETE', `/api/v1/links/${id}/social-card/image`, { key: a.key });
    assert.equal(twice.status, 200, 'removing no image is no error');
  });

  test('a bad, undecodable, oversized or missing file: 422 naming social_card.image, nothing changed', async () => {
    const a = await h().account();
    const { id } = await link(a.key, { 'social_card[image]': 'https://cdn.example/og.png' });
    const before = await record(a.key, id);
    const truncated = greenPng().subarray(0, 60);
    const cases: Array<[string, Uint8Array | string | null, string?]> = [
      ['an SVG', '<svg xmlns="http://www.w3.org/2000/svg"/>'],
      ['a JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46])],
      ['a truncated PNG', truncated],
      ['too many pixels', deepPng(2049, 8)],
      ['too deep', deepPng(2048, 16)],
      ['over 1 MB', Buffer.alloc(1024 * 1024 + 1, 1)],
      ['no file', null],
      ['another field', greenPng(), 'logo'],
    ];
    for (const [what, file, field] of cases) {
      const res = await put(h(), a.key, id, file, field);
      assert.equal(res.status, 422, `${what}: ${res.text}`);
      assert.deepEqual(Object.keys(res.body.message), ['social_card.image'], what);
    }
    const raw = await h().request('PUT', `/api/v1/links/${id}/social-card/image`, { key: a.key, json: {} });
    assert.equal(raw.status, 422, raw.text);
    assert.deepEqual(Object.keys(raw.body.message), ['social_card.image']);
    const after = await record(a.key, id);
    assert.deepEqual(after.social_card, before.social_card);
    assert.equal(after.updated_at, before.updated_at);
  });

  test("another account's link is a 404; no image for a password, disabled or deleted link", async () => {
    const a = await h().account();
    const b = await h().account();
    const { id } = await link(a.key);
    assert.equal((await put(h(), b.key, id, greenPng())).status, 404);
    assert.equal((await h().request('DELETE', `/api/v1/links/${id}/social-card/image`, { key: b.key })).status, 404);

    const done = await put(h(), a.key, id, greenPng());
    const path = new URL(done.body.data.social_card.image).pathname;
    assert.equal((await fetchImage(h(), path)).status, 200);
    assert.equal((await fetchImage(h(), path.replace(/[0-9a-f]{16}/, '0'.repeat(16)))).status, 404, 'another hash');
    const next = await put(h(), a.key, id, deepPng(60, 8));
    const nextPath = new URL(next.body.data.social_card.image).pathname;
    assert.notEqual(nextPath, path, 'a new image is a new address');
    assert.equal((await fetchImage(h(), path)).status, 404, 'the earlier address serves nothing');
    await h().request('PUT', `/api/v1/links/${id}`, {
      key: a.key,
      json: { social_card: { title: 'Sale', image: `${h().config.APP_URL}${path}` } },
    });
    assert.equal((await fetchImage(h(), path)).status, 404, 'named again, the earlier address has other bytes now');
    await h().request('PUT', `/api/v1/links/${id}`, {
      key: a.key,
      json: { social_card: { title: 'Sale', image: `${h().config.APP_URL}${nextPath}` } },
    });
    assert.equal((await fetchImage(h(), nextPath)).status, 200);

    await h().request('PUT', `/api/v1/links/${id}`, { key: a.key, json: { password: 'hunter22' } });
    assert.equal((await fetchImage(h(), nextPath)).status, 404, 'behind a password: no card, no image');
    await h().request('PUT', `/api/v1/links/${id}`, { key: a.key, json: { password: null, disabled: 1 } });
    assert.equal((await fetchImage(h(), nextPath)).status, 404, 'disabled');
    await h().request('PUT', `/api/v1/links/${id}`, { key: a.key, json: { disabled: 0 } });
    assert.equal((await fetchImage(h(), nextPath)).status, 200, 'enabled again');

    assert.equal((await h().request('DELETE', `/api/v1/links/${id}`, { key: a.key })).status, 200);
    assert.equal((await fetchImage(h(), nextPath)).status, 404);
    const rows = await h()
      .server.container.storage.db.selectFrom('link_card_images')
      .select('link_id')
      .where('link_id', '=', id)
      .execute();
    assert.deepEqual(rows, [], 'gone with its link');
  });
});
