import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';

onEachEngine('QR code of a link', (h) => {
  test('SVG by default, PNG on request, encoding short_url; owner-only', async () => {
    const a = await h().account();
    const b = await h().account();
    const made = await h().request('POST', '/api/v1/links', {
      key: a.key,
      form: { url: 'https://example.com/qr', alias: 'qr-code' },
    });
    const id = made.body.data.id as number;

    const svg = await h().request('GET', `/api/v1/links/${id}/qr`, { key: a.key });
    assert.equal(svg.status, 200);
    assert.match(svg.headers.get('content-type') ?? '', /^image\/svg\+xml/);
    assert.match(svg.text, /^<svg[\s\S]*<\/svg>\s*$/);

    const res = await fetch(`${h().baseUrl}/api/v1/links/${id}/qr?format=png&size=128`, {
      headers: { authorization: `Bearer ${a.key}` },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    const png = Buffer.from(await res.arrayBuffer());
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.equal(png.readUInt32BE(16), 128, 'PNG width is the requested size');

    assert.equal((await h().request('GET', `/api/v1/links/${id}/qr`, { key: b.key })).status, 404);
    assert.equal((await h().request('GET', `/api/v1/links/${id}/qr`)).status, 401);
    assert.equal((await h().request('GET', `/api/v1/links/${id}/qr?format=gif`, { key: a.key })).status, 422);
    assert.equal((await h().request('GET', `/api/v1/links/${id}/qr?size=10`, { key: a.key })).status, 422);
  });

  test('the code encodes exactly the short URL', async () => {
    const QRCode = (await import('qrcode')).default;
    const a = await h().account();
    const made = await h().request('POST', '/api/v1/links', {
      key: a.key,
      form: { url: 'https://example.com/q2', alias: 'qr-two' },
    });
    const svg = await h().request('GET', `/api/v1/links/${made.body.data.id}/qr`, { key: a.key });
    const expected = await QRCode.toString('http://short.test/qr-two?qr=1', {
      type: 'svg',
      errorCorrectionLevel: 'M',
      margin: 2,
      width: 300,
    });
    assert.equal(svg.text, expected);
  });
});
