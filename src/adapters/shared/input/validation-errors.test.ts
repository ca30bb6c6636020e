import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { fieldErrorsOf } from './validation-errors.ts';

const wrongType = (field: string, type: string): FastifySchemaValidationError => ({
  keyword: 'type',
  instancePath: `/${field}`,
  schemaPath: '#/type',
  params: { type },
  message: `must be ${type}`,
});

test('a number field of the wrong type is told it must be a number, with no example that fits one field only', () => {
  assert.deepEqual(fieldErrorsOf([wrongType('price', 'number')]), { price: ['The price field must be a number.'] });
  assert.deepEqual(fieldErrorsOf([wrongType('count', 'integer')]), { count: ['The count field must be an integer.'] });
});

test("a field's own type message replaces the generic one, for that field and keyword only", () => {
  const errors = [
    wrongType('value', 'number,null'),
    wrongType('price', 'number'),
    { ...wrongType('value', 'number'), keyword: 'maximum', params: { limit: 5 } },
  ];
  assert.deepEqual(fieldErrorsOf(errors, { value: 'The value field must be a number such as 12.50 or -3.5.' }), {
    value: ['The value field must be a number such as 12.50 or -3.5.', 'The value field must not be greater than 5.'],
    price: ['The price field must be a number.'],
  });
});
