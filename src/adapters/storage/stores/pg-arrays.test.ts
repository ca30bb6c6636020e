import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArrayLiteralWriter, intArray, quotedElement, textArray } from './pg-arrays.ts';

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

test('the literal writer writes what intArray and textArray build, element by element', () => {
  const writer = new ArrayLiteralWriter(); // reused: each literal starts afresh
  for (const values of [[], [0], [1, -2, 1795554875611, null, 9007199254740991]]) {
    writer.begin();
    for (const v of values) {
      if (v === null) writer.nul();
      else writer.int(v);
    }
    assert.equal(writer.end(), intArray(values));
  }
  const texts = ['a', null, 'NULL', '', 'x,y{}', 'say "hi"', 'C:\\d', 'é 🙂', 'x'.repeat(70_000)];
  writer.begin();
  for (const v of texts) {
    if (v === null) writer.nul();
    else writer.element(quotedElement(v));
  }
  assert.equal(writer.end(), textArray(texts));
  writer.begin();
  assert.throws(() => writer.int(1.5), RangeError);
});
