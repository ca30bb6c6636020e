import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldErrorBag, type ValidationError } from '../shared/errors.ts';
import { checkTagName, checkTagNames, colourFor, readTagName } from './tag-names.ts';
import { TAG_COLOURS } from './tag.ts';

const faultsOf = (names: string[]) => {
  const bag = new FieldErrorBag();
  const kept = checkTagNames(bag, 'tags', names);
  try {
    bag.throwIfAny();
    return { kept, errors: {} };
  } catch (error) {
    return { kept, errors: (error as ValidationError).fields };
  }
};

test('a name is trimmed and stored NFC; 1–32 characters, counted as characters', () => {
  assert.deepEqual(readTagName('  Launch '), { name: 'Launch' });
  assert.deepEqual(readTagName('Cafe\u0301'), { name: 'Café' });
  assert.deepEqual(readTagName('   '), { fault: 'required' });
  assert.deepEqual(readTagName('x'.repeat(33)), { fault: 'long' });
  assert.deepEqual(readTagName('😀'.repeat(32)), { name: '😀'.repeat(32) });
});

test('control, invisible and direction characters are refused', () => {
  for (const name of ['a\u0000b', 'a\u0007', 'a\u200bb', 'a\u202eb', 'a\u2028b', 'a\nb'])
    assert.deepEqual(readTagName(name), { fault: 'hidden' }, JSON.stringify(name));
});

test("a link's names: repeats ignoring case kept once (the first spelling), at most 10, faults named under the field once", () => {
  assert.deepEqual(faultsOf(['Red', 'red', ' RED ', 'Blue']), { kept: ['Red', 'Blue'], errors: {} });
  const ten = Array.from({ length: 10 }, (_, i) => `t${i}`);
  assert.equal(faultsOf([...ten, 'T0']).kept.length, 10);
  assert.deepEqual(Object.keys(faultsOf([...ten, 't10']).errors), ['tags']);
  const bad = faultsOf(['', 'x'.repeat(40), 'ok']);
  assert.deepEqual(bad.kept, ['ok']);
  assert.equal(bad.errors.tags?.length, 1);
});

test('a rename is one name under its own field', () => {
  const bag = new FieldErrorBag();
  assert.equal(checkTagName(bag, 'name', ' New '), 'New');
  assert.equal(checkTagName(bag, 'name', null), undefined);
  assert.ok(bag.has('name'));
});

test('a new tag takes a colour of the palette, the same for the same name in any case', () => {
  assert.ok(TAG_COLOURS.includes(colourFor('Launch')));
  assert.equal(colourFor('Launch'), colourFor('LAUNCH'));
});
