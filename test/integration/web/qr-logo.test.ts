import { test } from 'node:test';
import assert from 'node:assert/strict';
import jsQRModule from 'jsqr';
import QRCode from 'qrcode';
import { PNG } from 'pngjs';
import { onEachEngine } from '../../support/harness.ts';
import { DIRTY_SVG, deepPng, greenPng } from '../../support/qr-logos.ts';
import { csrfOf, type WebClient } from '../../support/web-client.ts';
import { webAccount, type SignedIn } from '../../support/web-resources.ts';

// jsqr's types describe an ES module's default export; its file sets module.exports to the function.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

/** Posts the logo form as a browser does: multipart, the CSRF token a field of the body. */
async function upload(
  client: WebClient,
  id: number,
  file: { bytes: Buffer; name: string; type: string } | null,
  fields: Record<string, string> = {},
  token?: string,
) {
  const form = new FormData();
  form.append('_csrf', token ?? csrfOf((await client.get(`/links/${id}/qr`)).text));
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append(
    'logo',
    new Blob([new Uint8Array(file?.bytes ?? Buffer.alloc(0))], { type: file?.type ?? 'application/octet-stream' }),
    file?.name ?? '',
  );
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(`${client.baseUrl}/links/${id}/qr/logo`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { cookie },
  });
  // The flash message rides in a cookie, as the client's own posts keep it.
  for (const line of res.headers.getSetCookie()) {
    const [name = '', value = ''] = (line.split(';')[0] ?? '').split('=');
    if (value !== '') client.cookies.set(name.trim(), value.trim());
  }
  return { status: res.status, text: await res.text(), location: res.headers.get('location') };
}

onEachEngine('web: QR logo', (h) => {
  let me: SignedIn;
  let other: SignedIn;
  const link = async (owner: SignedIn, alias: string) => {
    const reply = await h().request('POST', '/api/v1/links', {
      key: owner.key,
      form: { url: 'https://example.com/logo', alias },
    });
    return reply.body.data.id as number;
  };
  const apiPng = (owner: SignedIn, id: number, query = '') =>
    fetch(`${h().baseUrl}/api/v1/links/${id}/qr?format=png&${query}`, {
      headers: { authorization: `Bearer ${owner.key}` },
    });

  test('setup', async () => {
    me = await webAccount(h());
    other = await webAccount(h());
  });

  test('a PNG logo: uploaded from the page, drawn in the centre at level H, still scans', async () => {
    const id = await link(me, 'logo-png');
    const done = await upload(
      me.client,
      id,
      { bytes: greenPng(), name: 'logo.svg', type: 'image/svg+xml' },
      { size: '240', style: 'rounded', ecc: 'L' },
    );
    assert.equal(done.status, 303, done.text.slice(0, 300));
    assert.match(done.location ?? '', new RegExp(`^/links/${id}/qr\\?size=240&.*ecc=L&style=rounded`));
    const page = await me.client.get(done.location ?? '');
    assert.match(page.text, /Logo saved\./);
    assert.match(page.text, /has a PNG logo/);
    assert.match(page.text, /<option value="L" selected>/);

    const res = await apiPng(me, id, 'size=300');
    assert.equal(res.status, 200);
    const image = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
    assert.equal(
      jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data,
      'http://short.test/logo-png?qr=1',
    );
    const centre = (150 * 300 + 150) * 4;
    assert.deepEqual([...image.data.subarray(centre, centre + 3)], [20, 160, 60]);

    const svg = await h().request('GET', `/api/v1/links/${id}/qr`, { key: me.key });
    assert.match(svg.text, /<image href="data:image\/png;base64,/);
    const without = await h().request('GET', `/api/v1/links/${id}/qr?logo=false`, { key: me.key });
    assert.equal(
      without.text,
      await QRCode.toString('http://short.test/logo-png?qr=1', {
        type: 'svg',
        errorCorrectionLevel: 'M',
        margin: 2,
        width: 300,
      }),
    );
    const web = await me.client.get(`/links/${id}/qr.png?size=200`);
    assert.equal(web.status, 200);
    assert.equal(web.headers.get('content-type'), 'image/png');
  });

  test('an SVG logo is sanitised and embedded; a PNG of it is refused on `logo`', async () => {
    const id = await link(me, 'logo-svg');
    assert.equal(
      (await upload(me.client, id, { bytes: Buffer.from(DIRTY_SVG), name: 'logo.png', type: 'image/png' })).status,
      303,
    );
    const svg = await h().request('GET', `/api/v1/links/${id}/qr`, { key: me.key });
    const embedded = /<image href="data:image\/svg\+xml;base64,([^"]+)"/.exec(svg.text);
    assert.ok(embedded, svg.text.slice(0, 200));
    const logo = Buffer.from(embedded[1]!, 'base64').toString();
    assert.doesNotMatch(logo, /script|onload|alert/);
    assert.match(logo, /<circle cx="5" cy="5" r="5" fill="#c00"><\/circle>/);

    const refused = await apiPng(me, id);
    assert.equal(refused.status, 422);
    assert.match(await refused.text(), /"logo"/);
    assert.equal((await apiPng(me, id, 'logo=false')).status, 200);
    const web = await me.client.get(`/links/${id}/qr.png`);
    assert.equal(web.status, 422);
    assert.match(web.text, /id="qr-logo-error"/);
    const page = await me.client.get(`/links/${id}/qr`);
    assert.doesNotMatch(page.text, /qr\.png/);
    assert.match(page.text, /drawn only into the SVG download/);
  });

  test('bad uploads: 422 naming the logo, the form kept, nothing stored', async () => {
    const id = await link(me, 'logo-bad');
    const cases = [
      [{ bytes: Buffer.from('GIF89a\x01\x00\x01\x00'), name: 'logo.png', type: 'image/png' }, /must be a PNG or SVG/],
      [
        { bytes: Buffer.from('<html><body>no</body></html>'), name: 'logo.svg', type: 'image/svg+xml' },
        /must be a PNG or SVG/,
      ],
      [
        { bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"'), name: 'cut.svg', type: 'image/svg+xml' },
        /no drawing left/,
      ],
      [{ bytes: Buffer.alloc(100 * 1024 + 1, 0x20), name: 'big.svg', type: 'image/svg+xml' }, /at most 100 KB/],
      [null, /Choose a PNG or SVG file/],
    ] as const;
    for (const [file, message] of cases) {
      const reply = await upload(me.client, id, file, { size: '256', margin: '3' });
      assert.equal(reply.status, 422, `${file?.name}: ${reply.text.slice(0, 200)}`);
      assert.match(reply.text, /<p class="field-error" id="qr-logo-error">/);
      assert.match(reply.text, message);
      assert.match(reply.text, /name="size" type="number"[^>]*value="256"|value="256"/);
    }
    const svg = await h().request('GET', `/api/v1/links/${id}/qr`, { key: me.key });
    assert.doesNotMatch(svg.text, /<image/);
  });

  // Issue 48, finding 4: bit depth and channels count in what a PNG may take decoded.
  test('a PNG too deep to decode: 422 naming the logo, and the logo before it stays', async () => {
    const id = await link(me, 'logo-deep');
    const before = greenPng();
    assert.equal((await upload(me.client, id, { bytes: before, name: 'l.png', type: 'image/png' })).status, 303);
    const reply = await upload(
      me.client,
      id,
      { bytes: deepPng(1024, 16), name: 'deep.png', type: 'image/png' },
      { size: '256' },
    );
    assert.equal(reply.status, 422, reply.text.slice(0, 200));
    assert.match(
      reply.text,
      /<p class="field-error" id="qr-logo-error">[^<]*save it at 8 bits per channel, or smaller/,
    );
    const kept = await h()
      .server.container.storage.db.selectFrom('link_qr_logos')
      .select('bytes')
      .where('link_id', '=', id)
      .executeTakeFirstOrThrow();
    assert.ok(Buffer.from(kept.bytes).equals(before), 'the logo stays what it was');
  });

  test('CSRF: a missing or wrong token is refused and nothing stored', async () => {
    const id = await link(me, 'logo-csrf');
    assert.equal(
      (await upload(me.client, id, { bytes: greenPng(), name: 'l.png', type: 'image/png' }, {}, 'wrong')).status,
      403,
    );
    const svg = await h().request('GET', `/api/v1/links/${id}/qr`, { key: me.key });
    assert.doesNotMatch(svg.text, /<image/);
  });

  test("isolation: another account's link is a 404 to upload and to remove; logos stay with their link", async () => {
    const mine = await link(me, 'logo-mine');
    const theirs = await link(other, 'logo-theirs');
    assert.equal(
      (await upload(other.client, theirs, { bytes: greenPng(), name: 'l.png', type: 'image/png' })).status,
      303,
    );
    const token = csrfOf((await me.client.get(`/links/${mine}/qr`)).text);
    assert.equal(
      (await upload(me.client, theirs, { bytes: greenPng(), name: 'l.png', type: 'image/png' }, {}, token)).status,
      404,
    );
    assert.equal((await me.client.post(`/links/${theirs}/qr/logo/remove`, { _csrf: token })).status, 404);
    assert.match((await h().request('GET', `/api/v1/links/${theirs}/qr`, { key: other.key })).text, /<image/);
    assert.doesNotMatch((await h().request('GET', `/api/v1/links/${mine}/qr`, { key: me.key })).text, /<image/);
  });

  test('remove: the code is drawn without it again; deleting the link deletes its logo', async () => {
    const id = await link(me, 'logo-gone');
    assert.equal((await upload(me.client, id, { bytes: greenPng(), name: 'l.png', type: 'image/png' })).status, 303);
    const removed = await me.client.post(
      `/links/${id}/qr/logo/remove`,
      { size: '128', ecc: 'Q' },
      { from: `/links/${id}/qr` },
    );
    assert.equal(removed.status, 303);
    assert.match(removed.location ?? '', new RegExp(`^/links/${id}/qr\\?size=128&.*ecc=Q`));
    assert.match((await me.client.get(removed.location ?? '')).text, /Logo removed\./);
    assert.doesNotMatch((await h().request('GET', `/api/v1/links/${id}/qr`, { key: me.key })).text, /<image/);

    assert.equal((await upload(me.client, id, { bytes: greenPng(), name: 'l.png', type: 'image/png' })).status, 303);
    assert.equal((await h().request('DELETE', `/api/v1/links/${id}`, { key: me.key })).status, 200);
    const rows = await h()
      .server.container.storage.db.selectFrom('link_qr_logos')
      .select('link_id')
      .where('link_id', '=', id)
      .execute();
    assert.deepEqual(rows, []);
  });
});
