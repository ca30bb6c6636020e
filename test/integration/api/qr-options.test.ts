import { test } from 'node:test';
import assert from 'node:assert/strict';
import QRCode from 'qrcode';
import { onEachEngine } from '../../support/harness.ts';

onEachEngine('QR code options in the API', (h) => {
  const made = async (key: string, alias: string) => {
    const reply = await h().request('POST', '/api/v1/links', { key, form: { url: 'https://example.com/opts', alias } });
    return reply.body.data.id as number;
  };

  test('ecc picks the level; M by default, as before', async () => {
    const a = await h().account();
    const id = await made(a.key, 'qr-ecc');
    const plain = { type: 'svg' as const, margin: 2, width: 300 };
    const byDefault = await h().request('GET', `/api/v1/links/${id}/qr`, { key: a.key });
    assert.equal(
      byDefault.text,
      await QRCode.toString('http://short.test/qr-ecc?qr=1', { ...plain, errorCorrectionLevel: 'M' }),
    );
    for (const ecc of ['L', 'Q', 'H'] as const) {
      const svg = await h().request('GET', `/api/v1/links/${id}/qr?ecc=${ecc}`, { key: a.key });
      assert.equal(svg.status, 200);
      assert.equal(
        svg.text,
        await QRCode.toString('http://short.test/qr-ecc?qr=1', { ...plain, errorCorrectionLevel: ecc }),
        ecc,
      );
    }
  });

  test('style=rounded draws rounded modules, as SVG and as PNG', async () => {
    const a = await h().account();
    const id = await made(a.key, 'qr-round');
    const svg = await h().request('GET', `/api/v1/links/${id}/qr?style=rounded`, { key: a.key });
    assert.equal(svg.status, 200);
    assert.match(
      svg.text,
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 \d+ \d+" width="300" height="300">/,
    );
    assert.match(svg.text, /a0\.5 0\.5 0 0 1/);
    const res = await fetch(`${h().baseUrl}/api/v1/links/${id}/qr?format=png&style=rounded&ecc=H&size=200`, {
      headers: { authorization: `Bearer ${a.key}` },
    });
    assert.equal(res.status, 200);
    const png = Buffer.from(await res.arrayBuffer());
    assert.equal(png.readUInt32BE(16), 200);
  });

  test('bad options: 422 naming the field', async () => {
    const a = await h().account();
    const id = await made(a.key, 'qr-bad');
    for (const [query, field] of [
      ['ecc=X', 'ecc'],
      ['ecc=m', 'ecc'],
      ['style=dots', 'style'],
      ['logo=maybe', 'logo'],
    ] as const) {
      const reply = await h().request('GET', `/api/v1/links/${id}/qr?${query}`, { key: a.key });
      assert.equal(reply.status, 422, query);
      assert.ok(JSON.stringify(reply.body).includes(field), `${query}: ${JSON.stringify(reply.body)}`);
    }
  });
});
