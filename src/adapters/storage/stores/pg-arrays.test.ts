import { test } from 'node:test';
import assert from 'node:assert/strict';
import { intArray, textArray } from './pg-arrays.ts';

test('integer arrays: values and NULL; anything but an integer is refused', () => {
  assert.equal(intArray([]), '{}');
  assert.equal(intArray([1, -2, 1795554875611, null]), '{1,-2,1795554875611,NULL}');
  assert.throws(() => intArray([1.5]), RangeError);
  assert.throws(() => intArray([Number.NaN]), RangeError);
});

test('text arrays: every element quoted, quotes and backslashes escaped, NULL apart from "NULL"', () => {
  assert.equal(textArray([]), '{}');
  assert.equal(textArray(['a', null, 'NULL', '', 'x,y{}', 'say "hi"', 'C:\\d', 'é 🙂']), '{"a",NULL,"NULL","","x,y{}","say \\"hi\\"","C:\\\\d","é 🙂"}');
});
