import { test } from 'node:test';
import assert from 'node:assert/strict';
import jsQRModule from 'jsqr';
import QRCode from 'qrcode';
import { PNG } from 'pngjs';
import { drawPng } from './qr-raster.ts';
import renderPng from './qr-png-worker.ts';
import { QR_ECC_LEVELS, QR_STYLES, type QrSettings } from './qr-options.ts';

// jsqr's types describe an ES module's default export; its file sets module.exports to the function.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

const TEXT = 'https://short.test/scan-me';
const LOOK = { size: 300, margin: 2, foreground: '#000000', background: '#ffffff' };

function decoded(png: Uint8Array): string | undefined {
  const image = PNG.sync.read(Buffer.from(png));
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

/** A 64 px logo: an opaque red square with a transparent ring round it. */
function logoPng(): Uint8Array {
  const png = new PNG({ width: 64, height: 64 });
  for (let i = 0; i < 64 * 64; i++) {
    const x = i % 64;
    const y = Math.floor(i / 64);
    const inside = x > 8 && x < 56 && y > 8 && y < 56;
    png.data.set(inside ? [220, 30, 30, 255] : [0, 0, 0, 0], i * 4);
  }
  return PNG.sync.write(png);
}

test('a scanner reads the code at every level, in both styles', async () => {
  for (const ecc of QR_ECC_LEVELS) {
    for (const style of QR_STYLES) {
      const png = await renderPng({ text: TEXT, settings: { ...LOOK, ecc, style } });
      assert.equal(decoded(png), TEXT, `${ecc} ${style}`);
    }
  }
});

test('a scanner reads the code under a logo, square and rounded', () => {
  for (const style of QR_STYLES) {
    const settings: QrSettings = { ...LOOK, ecc: 'L', style, logo: { type: 'png', bytes: logoPng() } };
    const png = drawPng(TEXT, settings);
    assert.equal(decoded(png), TEXT, style);
    const image = PNG.sync.read(png);
    const centre = (150 * 300 + 150) * 4;
    assert.deepEqual(
      [...image.data.subarray(centre, centre + 4)],
      [220, 30, 30, 255],
      'the logo is drawn in the centre',
    );
  }
});

test('rounded modules round the outside corners of a shape, not its inside', () => {
  // 10 px a module: the finder pattern's top-left module starts at pixel 20 (a margin of 2).
  const size = (QRCode.create(TEXT, { errorCorrectionLevel: 'M' }).modules.size + 4) * 10;
  const square = PNG.sync.read(drawPng(TEXT, { ...LOOK, size, style: 'square' }));
  const rounded = PNG.sync.read(drawPng(TEXT, { ...LOOK, size, style: 'rounded' }));
  const at = (x: number, y: number) => (y * size + x) * 4;
  assert.equal(square.data[at(20, 20)], 0);
  assert.equal(rounded.data[at(20, 20)], 255, "the finder's outer corner is round");
  assert.equal(rounded.data[at(30, 20)], 0, 'its edge between two dark modules is straight');
});
