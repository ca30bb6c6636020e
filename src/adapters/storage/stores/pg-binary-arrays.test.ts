import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BinaryArrayWriter,
  int4Array,
  int8Array,
  repeatedTextArray,
  textArray,
  textBytes,
} from './pg-binary-arrays.ts';

/** array_send's layout, read back: flags, element OID, and each element's bytes (null for NULL). */
function read(bytes: Buffer): { nulls: number; oid: number; elements: (Buffer | null)[] } {
  assert.equal(bytes.readInt32BE(0), 1, 'one dimension');
  const n = bytes.readInt32BE(12);
  assert.equal(bytes.readInt32BE(16), 1, 'lower bound 1');
  const elements: (Buffer | null)[] = [];
  let at = 20;
  for (let i = 0; i < n; i++) {
    const length = bytes.readInt32BE(at);
    at += 4;
    elements.push(length < 0 ? null : bytes.subarray(at, (at += length)));
  }
  assert.equal(at, bytes.length, 'nothing after the last element');
  return { nulls: bytes.readInt32BE(4), oid: bytes.readInt32BE(8), elements };
}

test('int4 arrays: big-endian values, NULL as length -1, the has-nulls flag, OID 23', () => {
  const { nulls, oid, elements } = read(int4Array([0, -1, 2 ** 31 - 1, -(2 ** 31), null]));
  assert.deepEqual([nulls, oid], [1, 23]);
  assert.deepEqual(
    elements.map((e) => e && e.readInt32BE(0)),
    [0, -1, 2 ** 31 - 1, -(2 ** 31), null],
  );
  assert.equal(read(int4Array([7])).nulls, 0);
  assert.throws(() => int4Array([2 ** 31]), RangeError);
  assert.throws(() => int4Array([1.5]), RangeError);
});

test('int8 arrays: every safe integer, negative ones included, OID 20', () => {
  const values = [
    0,
    1,
    -1,
    1795554875611,
    -1795554875611,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
    2 ** 32,
    2 ** 32 - 1,
  ];
  const { oid, elements } = read(int8Array(values));
  assert.equal(oid, 20);
  assert.deepEqual(
    elements.map((e) => Number(e!.readBigInt64BE(0))),
    values,
  );
  assert.throws(() => int8Array([2 ** 53]), RangeError);
  assert.throws(() => int8Array([Number.NaN]), RangeError);
});

test('text arrays: UTF-8 bytes as they are (nothing quoted or escaped), OID 25; NUL refused', () => {
  const values = [
    'a',
    null,
    'NULL',
    '',
    'x,y{}',
    'say "hi"',
    'C:\\d',
    'é 🙂',
    'x'.repeat(70_000),
    'a',
    '',
    'é 🙂',
    null,
    'a',
  ];
  // repeatedTextArray encodes each distinct value once, and writes the same array.
  assert.deepEqual(repeatedTextArray(values), textArray(values));
  const { nulls, oid, elements } = read(textArray(values));
  assert.deepEqual([nulls, oid], [1, 25]);
  assert.deepEqual(
    elements.map((e) => e && e.toString('utf8')),
    values,
  );
  assert.throws(() => textBytes('a\0b'), RangeError);
});

test('one writer, reused: each array starts afresh and is a copy of its own; an element of another type is refused', () => {
  const writer = new BinaryArrayWriter();
  const first = int4Array([1, 2, 3], writer);
  const second = textArray(['z'], writer);
  assert.deepEqual(
    read(first).elements.map((e) => e!.readInt32BE(0)),
    [1, 2, 3],
  );
  assert.deepEqual(
    read(second).elements.map((e) => e!.toString()),
    ['z'],
  );
  assert.deepEqual(read(int8Array([], writer)).elements, []);
  writer.begin('text');
  assert.throws(() => writer.int4(1), TypeError);
  assert.throws(() => writer.int8(1), TypeError);
});
