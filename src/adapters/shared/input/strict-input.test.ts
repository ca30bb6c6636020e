import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { inputFaults, parseDecimal, strictValidator } from './strict-input.ts';

test('decimal digits only; a sign only where negatives are taken', () => {
  for (const text of ['0', '7', '007', '2147483647']) assert.equal(parseDecimal(text), Number(text));
  for (const text of [
    'Infinity',
    '-Infinity',
    '+Infinity',
    'NaN',
    '1e3',
    '-0',
    '-1',
    '0x10',
    '1_000',
    ' 1',
    '1 ',
    '１',
    '1.0',
    '+1',
    '',
  ]) {
    assert.equal(parseDecimal(text), null, text);
  }
  assert.equal(parseDecimal('-3', { negative: true }), -3);
  assert.equal(parseDecimal('+3', { negative: true }), null);
});

test('a fraction only where asked for: digits on both sides of one point, no exponent, no comma', () => {
  assert.equal(parseDecimal('12.50', { fraction: true }), 12.5);
  assert.equal(parseDecimal('7', { fraction: true }), 7);
  assert.equal(parseDecimal('-3.5', { fraction: true, negative: true }), -3.5);
  assert.equal(parseDecimal('-3.5', { fraction: true }), null, 'no sign where negatives are not taken');
  for (const text of [
    '1e3',
    '0x10',
    ' 1',
    '1 ',
    '1,5',
    '1.',
    '.5',
    '1.2.3',
    '+1.5',
    'Infinity',
    'NaN',
    '１.５',
    '1_000.5',
    '',
  ]) {
    assert.equal(parseDecimal(text, { fraction: true, negative: true }), null, text);
  }
  assert.equal(parseDecimal('12.50'), null, 'an integer field keeps its reading');
});

const Body = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 9 }),
  title: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  name: Type.Optional(Type.String()),
  pixels: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 9 }))),
  offset: Type.Optional(Type.Integer({ minimum: -5, maximum: 5 })),
});

const fields = (data: unknown) => inputFaults(Body, data).map((f) => f.instancePath);

test('a field of the wrong type is found by its path, before any coercion', () => {
  assert.deepEqual(fields({ page: '3', name: 'a', pixels: ['1', 2], offset: '-2' }), []);
  assert.deepEqual(fields({ page: 3 }), [], 'a JSON number is taken as it is');
  assert.deepEqual(fields({ page: '3', pixels: '4' }), [], 'one value where a list is expected is a list of one');
  assert.deepEqual(fields({ page: 'Infinity' }), ['/page']);
  assert.deepEqual(
    inputFaults(Body, { page: '-0' }).map((f) => f.keyword),
    ['minimum'],
    'a negative where none is taken is below the minimum',
  );
  assert.deepEqual(fields({ page: true }), ['/page']);
  assert.deepEqual(fields({ page: ['3'] }), ['/page'], 'a list where one value is expected');
  assert.deepEqual(fields({ page: '1', name: ['a'] }), ['/name']);
  assert.deepEqual(fields({ page: '1', name: 5 }), ['/name'], 'a number where text is expected');
  assert.deepEqual(fields({ page: '1', name: null }), [], 'a blank field is left to the rules (required…)');
  assert.deepEqual(fields({ page: '1', pixels: ['1', { x: '1' }, '0x2'] }), ['/pixels/1', '/pixels/2']);
  assert.deepEqual(fields({ page: '1', pixels: { a: '1' } }), ['/pixels']);
  assert.deepEqual(fields({ page: '1', offset: '-2' }), []);
  for (const zero of ['-0', '-00', '-0.0', -0])
    assert.deepEqual(
      fields({ page: '1', offset: zero }),
      ['/offset'],
      `${String(zero)}: -0 is no spelling of a number`,
    );
  assert.deepEqual(fields({ page: -0 }), ['/page'], 'a JSON -0 is refused where negatives are not taken, too');
});

const Amount = Type.Object({
  value: Type.Optional(Type.Unsafe<number | null>({ type: ['number', 'null'], minimum: -100, maximum: 100 })),
  price: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  count: Type.Optional(Type.Integer({ minimum: -5, maximum: 5 })),
});

test('a number field reads a decimal fraction; an integer field stays digits only', () => {
  const faults = (data: unknown) => inputFaults(Amount, data).map((f) => [f.instancePath, f.keyword]);
  assert.deepEqual(faults({ value: '12.50', price: '0.5', count: '-2' }), []);
  assert.deepEqual(faults({ value: '-3.5' }), []);
  for (const bad of ['1e3', '0x10', ' 1', '1,5', '1.', '.5', 'Infinity'])
    assert.deepEqual(faults({ value: bad }), [['/value', 'type']], bad);
  assert.deepEqual(faults({ count: '1.5' }), [['/count', 'type']]);
  assert.deepEqual(faults({ count: '1.0' }), [['/count', 'type']]);
  assert.deepEqual(
    faults({ price: '-0.5' }),
    [['/price', 'minimum']],
    'a negative where none is taken is below the minimum',
  );
  assert.deepEqual(
    inputFaults(Amount, { value: '1e3' }).map((f) => f.message),
    ['must be number'],
  );
});

test('the wrapped validator names each refused field once, before the validator it wraps', () => {
  let seen: unknown = null;
  const inner = Object.assign(
    (data: unknown) => {
      seen = structuredClone(data);
      inner.errors = [{ keyword: 'maximum', instancePath: '/page', schemaPath: '#', params: {}, message: 'too big' }];
      return false;
    },
    { errors: null } as { errors: unknown },
  );
  const validate = strictValidator(Body, inner);
  assert.equal(validate({ page: '0x10' }), false);
  assert.deepEqual(seen, { page: '0x10' }, 'the data as sent reaches Ajv too (its coercion and defaults)');
  assert.deepEqual(
    (validate.errors as { instancePath: string; keyword: string }[]).map((e) => [e.instancePath, e.keyword]),
    [['/page', 'type']],
  );
});
