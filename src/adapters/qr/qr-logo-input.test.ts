import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readLogo } from './qr-logo-input.ts';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>';

test('an SVG is told by its prologue: a declaration, comments and a DOCTYPE may come first', () => {
  const logo = readLogo(Buffer.from(`<?xml version="1.0"?>\n<!-- a -- b -->\n<!DOCTYPE svg [<!ENTITY x "y">]>\n${SVG}`));
  assert.ok('logo' in logo && logo.logo.type === 'svg');
  assert.deepEqual(readLogo(Buffer.from('<html><svg></svg></html>')), { problem: 'notImage' });
});

// Each comment of the prologue matches one way only: with a lazy match a comment could also end
// at a later `-->`, and forty of them before a byte that is no <svg took longer than any test.
test('a prologue of many comments ending in something else is refused in one pass', { timeout: 10_000 }, () => {
  assert.deepEqual(readLogo(Buffer.from(`${'<!---->'.repeat(40)}x`)), { problem: 'notImage' });
  assert.deepEqual(readLogo(Buffer.from(`<!DOCTYPE svg [${'<!---->'.repeat(40)}x`)), { problem: 'notImage' });
});
