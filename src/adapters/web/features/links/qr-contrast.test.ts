import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contrastRatio, hasLowContrast, relativeLuminance } from './qr-contrast.ts';

test('relative luminance: black 0, white 1, in either letter case', () => {
  assert.equal(relativeLuminance('#000000'), 0);
  assert.equal(relativeLuminance('#FFFFFF'), 1);
  assert.equal(relativeLuminance('#ffffff'), 1);
  assert.throws(() => relativeLuminance('red'), RangeError);
});

test('contrast ratio: 21 for black on white, 1 for a colour on itself, symmetric', () => {
  assert.equal(contrastRatio('#000000', '#ffffff'), 21);
  assert.equal(contrastRatio('#ffffff', '#000000'), 21);
  assert.equal(contrastRatio('#336699', '#336699'), 1);
  // Known values: #777777 on white is 4.48:1, #767676 on white 4.54:1 (the usual AA threshold pair).
  assert.equal(contrastRatio('#777777', '#ffffff').toFixed(2), '4.48');
  assert.equal(contrastRatio('#767676', '#ffffff').toFixed(2), '4.54');
});

test('the warning starts below 4.5:1', () => {
  assert.equal(hasLowContrast('#000000', '#ffffff'), false);
  assert.equal(hasLowContrast('#767676', '#ffffff'), false);
  assert.equal(hasLowContrast('#777777', '#ffffff'), true);
  assert.equal(hasLowContrast('#ffff00', '#ffffff'), true);
});
