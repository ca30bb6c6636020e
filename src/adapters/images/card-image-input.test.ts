import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { CARD_IMAGE_MAX_BYTES, readCardImage } from './card-image-input.ts';

const png = (width: number, height: number, bitDepth: 8 | 16 = 8) => {
  const image = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) image.data.set([200, 30, 30, 255], i * 4);
  return PNG.sync.write(image, { bitDepth, colorType: 6 });
};

test('a PNG is re-encoded from its pixels alone; a file cut short or with bytes after its end is refused', () => {
  const clean = readCardImage(png(120, 63));
  assert.ok('image' in clean && clean.image.type === 'png');
  const back = PNG.sync.read(Buffer.from(clean.image.bytes));
  assert.deepEqual([back.width, back.height, ...back.data.subarray(0, 4)], [120, 63, 200, 30, 30, 255]);
  const file = png(120, 63);
  assert.deepEqual(readCardImage(file.subarray(0, file.length - 13)), { problem: 'badPng' });
  assert.deepEqual(readCardImage(Buffer.concat([file, Buffer.from('<script>x</script>')])), { problem: 'badPng' });
});

test('only a PNG is an image: an SVG, a JPEG, text are not', () => {
  assert.deepEqual(readCardImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), { problem: 'notImage' });
  assert.deepEqual(readCardImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16])), { problem: 'notImage' });
  assert.deepEqual(readCardImage(Buffer.from('hello')), { problem: 'notImage' });
});

test('bounded: the file, the sides, and the pixels decoded, told before a byte is inflated', () => {
  assert.deepEqual(readCardImage(Buffer.alloc(CARD_IMAGE_MAX_BYTES + 1)), { problem: 'tooLarge' });
  assert.deepEqual(readCardImage(png(2049, 8)), { problem: 'pngTooBig' });
  assert.deepEqual(readCardImage(png(2048, 1025)), { problem: 'pngTooDeep' });
  assert.deepEqual(readCardImage(png(1600, 800, 16)), { problem: 'pngTooDeep' }, '16 bits a sample count twice');
  assert.ok('image' in readCardImage(png(2048, 1024)));
});
