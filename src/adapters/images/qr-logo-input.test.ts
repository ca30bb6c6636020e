import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { PNG_MAX_DECODED_BYTES, readLogo } from './qr-logo-input.ts';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>';

test('an SVG is told by its prologue: a declaration, comments and a DOCTYPE may come first', () => {
  const logo = readLogo(
    Buffer.from(`<?xml version="1.0"?>\n<!-- a -- b -->\n<!DOCTYPE svg [<!ENTITY x "y">]>\n${SVG}`),
  );
  assert.ok('logo' in logo && logo.logo.type === 'svg');
  assert.deepEqual(readLogo(Buffer.from('<html><svg></svg></html>')), { problem: 'notImage' });
});

// Each comment of the prologue matches one way only: with a lazy match a comment could also end
// at a later `-->`, and forty of them before a byte that is no <svg took longer than any test.
test('a prologue of many comments ending in something else is refused in one pass', { timeout: 10_000 }, () => {
  assert.deepEqual(readLogo(Buffer.from(`${'<!---->'.repeat(40)}x`)), { problem: 'notImage' });
  assert.deepEqual(readLogo(Buffer.from(`<!DOCTYPE svg [${'<!---->'.repeat(40)}x`)), { problem: 'notImage' });
});

// Bit depth and channels count: a 1024 px RGBA logo at 16 bits takes twice what it does at 8.
test('a PNG whose pixels would take more than the bound decoded is refused by its header', () => {
  const png = (side: number, bitDepth: 8 | 16, colorType: 2 | 6 = 6) =>
    PNG.sync.write(new PNG({ width: side, height: side }), { bitDepth, colorType });
  assert.deepEqual(readLogo(png(1024, 16)), { problem: 'pngTooDeep' });
  assert.deepEqual(readLogo(png(1024, 16, 2)), { problem: 'pngTooDeep' });
  assert.equal(PNG_MAX_DECODED_BYTES, 1024 * 1024 * 4);
  for (const fits of [png(1024, 8), png(724, 16), png(1024, 8, 2)]) {
    const read = readLogo(fits);
    assert.ok('logo' in read && read.logo.type === 'png');
  }
});
