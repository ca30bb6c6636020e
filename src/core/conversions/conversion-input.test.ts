import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConversion } from './conversion-input.ts';
import { ValidationError } from '../shared/errors.ts';

const fieldsOf = (input: Parameters<typeof checkConversion>[0]) => {
  try {
    checkConversion(input);
    return [];
  } catch (e) {
    assert.ok(e instanceof ValidationError);
    return Object.keys(e.fields);
  }
};

test('a sale with a value and a currency, as JSON or as the pixel query text', () => {
  assert.deepEqual(checkConversion({ click_id: 'abc', name: 'sale', value: 49.9, currency: 'eur' }), {
    clickId: 'abc',
    name: 'sale',
    value: 49.9,
    currency: 'EUR',
  });
  assert.deepEqual(checkConversion({ click_id: 'abc', name: ' lead ', value: '12.50', currency: '' }), {
    clickId: 'abc',
    name: 'lead',
    value: 12.5,
    currency: null,
  });
});

test('each bad field is named', () => {
  assert.deepEqual(fieldsOf({ name: 'sale' }), ['click_id']);
  assert.deepEqual(fieldsOf({ click_id: 'x' }), ['name']);
  assert.deepEqual(fieldsOf({ click_id: 'x', name: 'n'.repeat(65) }), ['name']);
  assert.deepEqual(fieldsOf({ click_id: 'x', name: 'a\u202Eb' }), ['name']);
  assert.deepEqual(fieldsOf({ click_id: 'x', name: 'sale', value: '1e3' }), ['value']);
  assert.deepEqual(fieldsOf({ click_id: 'x', name: 'sale', value: Infinity }), ['value']);
  assert.deepEqual(fieldsOf({ click_id: 'x', name: 'sale', value: 1e13 }), ['value']);
  assert.deepEqual(fieldsOf({ click_id: 'x', name: 'sale', currency: 'EURO' }), ['currency']);
  assert.deepEqual(fieldsOf({ click_id: 'x', name: 'n'.repeat(64), value: -5, currency: 'usd' }), []);
});

test('a bad value is named with what it takes; -0 is one, as a number or as text', () => {
  for (const value of [-0, '-0', '-0.0', 'abc']) {
    assert.throws(
      () => checkConversion({ click_id: 'x', name: 'sale', value }),
      (e: unknown) =>
        e instanceof ValidationError &&
        e.fields.value?.[0] === 'The value field must be a number such as 12.50 or -3.5.',
      String(value),
    );
  }
});
