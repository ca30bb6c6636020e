import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from '../shared/errors.ts';
import { filterQuery, parseFilters } from './stats-filter.ts';

test('parseFilters: known parameters in a fixed order, countries upper-cased, empty ones ignored', () => {
  const filters = parseFilters({ browser: 'Firefox', country: 'us', city: '', page: '2', search: 'x' });
  assert.deepEqual(filters, [
    { name: 'country', value: 'US' },
    { name: 'browser', value: 'Firefox' },
  ]);
  assert.deepEqual(filterQuery(filters), { country: 'US', browser: 'Firefox' });
  assert.deepEqual(parseFilters({}), []);
});

test('parseFilters: a bad value is a 422 naming its parameter', () => {
  const fieldsOf = (query: Record<string, unknown>) => {
    try {
      parseFilters(query);
    } catch (error) {
      assert.ok(error instanceof ValidationError);
      return Object.keys(error.fields);
    }
    return [];
  };
  assert.deepEqual(fieldsOf({ country: 'USA' }), ['country']);
  assert.deepEqual(fieldsOf({ country: '1x' }), ['country']);
  assert.deepEqual(fieldsOf({ referrer: 'a'.repeat(256) }), ['referrer']);
  assert.deepEqual(fieldsOf({ browser: ['a', 'b'] }), ['browser']);
  assert.deepEqual(fieldsOf({ device: 'pho\u202Ene' }), ['device']);
  assert.deepEqual(fieldsOf({ language: 'en\u0000' }), ['language']);
  assert.deepEqual(fieldsOf({ referrer: 'a'.repeat(255) }), []);
});
