import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32, deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { decodedBytes, readPngHeader, type PngHeader } from './png-header.ts';
import { inflatedBytes, inflatesWithinHeader } from './png-inflate.ts';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

/** A PNG written by hand: its header as given and `scanlines` bytes of zeros (all filter 0) as its image data. */
function handMade(header: PngHeader, colourType: number, scanlines: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(header.width, 0);
  ihdr.writeUInt32BE(header.height, 4);
  ihdr.set([header.bitDepth, colourType, 0, 0, header.interlaced ? 1 : 0], 8);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(scanlines))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('the header names the pixels, bit depth and channels of every colour type', () => {
  const cases: Array<[number, number, number]> = [
    [0, 16, 1],
    [2, 8, 3],
    [4, 8, 2],
    [6, 16, 4],
  ];
  for (const [colorType, bitDepth, channels] of cases) {
    const png = PNG.sync.write(new PNG({ width: 30, height: 20 }), {
      colorType: colorType as 0 | 2 | 4 | 6,
      bitDepth: bitDepth as 8 | 16,
    });
    assert.deepEqual(
      readPngHeader(png),
      { width: 30, height: 20, bitDepth, channels, interlaced: false },
      `colour type ${colorType}`,
    );
  }
  const rgba16 = readPngHeader(PNG.sync.write(new PNG({ width: 1024, height: 1024 }), { bitDepth: 16 }))!;
  assert.equal(decodedBytes(rgba16), 1024 * 1024 * 4 * 2);
  const palette = { width: 10, height: 10, bitDepth: 1, channels: 1, interlaced: false };
  assert.equal(decodedBytes(palette), 100, 'a sample under 8 bits counts as a byte');
});

test('a first chunk that is no valid IHDR is no header', () => {
  const good = handMade({ width: 4, height: 4, bitDepth: 8, channels: 4, interlaced: false }, 6, 4 * 17);
  assert.ok(readPngHeader(good));
  const at = (offset: number, value: number) => {
    const copy = Buffer.from(good);
    copy[offset] = value;
    return readPngHeader(copy);
  };
  assert.equal(at(12, 0x58), null, 'another chunk type first');
  assert.equal(at(24, 4), null, 'RGBA at 4 bits');
  assert.equal(at(25, 5), null, 'colour type 5');
  assert.equal(at(28, 2), null, 'interlace method 2');
  assert.equal(readPngHeader(good.subarray(0, 30)), null, 'cut inside the header');
});

test('an interlaced image: its seven passes inflate to what the header says, and no more is taken', () => {
  for (const [width, height] of [
    [1, 1],
    [3, 5],
    [37, 21],
    [64, 64],
  ] as const) {
    const header: PngHeader = { width, height, bitDepth: 8, channels: 4, interlaced: true };
    const exact = handMade(header, 6, inflatedBytes(header));
    assert.equal(PNG.sync.read(exact).width, width, 'pngjs decodes the hand-made image');
    assert.ok(inflatesWithinHeader(exact, header), `${width} × ${height}`);
    assert.equal(inflatesWithinHeader(handMade(header, 6, inflatedBytes(header) + 1), header), false);
  }
  const bomb: PngHeader = { width: 1024, height: 1024, bitDepth: 8, channels: 4, interlaced: true };
  const file = handMade(bomb, 6, 64 * 1024 * 1024);
  assert.ok(file.length < 100 * 1024, 'a file under the upload limit');
  assert.equal(inflatesWithinHeader(file, bomb), false);
});
