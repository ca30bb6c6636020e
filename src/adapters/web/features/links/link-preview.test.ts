import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyValues, type LinkFormValues } from './link-form-state.ts';
import { previewOf } from './link-preview.ts';

const base = 'https://s.test';
const german = { country: 'DE', platform: 'Android' as const, languages: ['fr', 'de'] };

function form(changes: Partial<LinkFormValues>): LinkFormValues {
  return { ...emptyValues(0), url: 'https://example.com/home', ...changes };
}

test('no targeting: the destination URL, the alias typed or none (random)', () => {
  assert.deepEqual(previewOf(form({}), base, german), {
    base,
    alias: null,
    title: null,
    destination: 'https://example.com/home',
    rotating: 0,
    visitor: german,
  });
  assert.equal(previewOf(form({ alias: ' spring ' }), base, german).alias, 'spring');
  assert.equal(previewOf(form({ url: '  ' }), base, german).destination, null);
  assert.equal(previewOf(form({ title: ' Spring sale ' }), base, german).title, 'Spring sale');
});

test("the list target_type names acts, keys matched as the core stores them; incomplete rows don't count", () => {
  const lists = {
    country: [
      { key: 'de', value: 'https://example.com/de' },
      { key: 'FR', value: '' },
    ],
    platform: [{ key: 'Android', value: 'https://example.com/android' }],
    language: [{ key: 'DE', value: 'https://example.com/lang-de' }],
    rotation: [],
  };
  assert.equal(previewOf(form({ target_type: '1', lists }), base, german).destination, 'https://example.com/de');
  assert.equal(
    previewOf(form({ target_type: '1', lists }), base, { ...german, country: 'FR' }).destination,
    'https://example.com/home',
  );
  assert.equal(previewOf(form({ target_type: '2', lists }), base, german).destination, 'https://example.com/android');
  assert.equal(previewOf(form({ target_type: '3', lists }), base, german).destination, 'https://example.com/lang-de');
  assert.equal(previewOf(form({ target_type: '0', lists }), base, german).destination, 'https://example.com/home');
  assert.equal(previewOf(form({ target_type: 'x', lists }), base, german).destination, 'https://example.com/home');
});

test('rotation: the first URL, and how many take turns', () => {
  const rotation = [
    { key: '', value: 'https://example.com/a' },
    { key: '', value: ' ' },
    { key: '', value: 'https://example.com/b' },
  ];
  const p = previewOf(
    form({ target_type: '4', lists: { country: [], platform: [], language: [], rotation } }),
    base,
    german,
  );
  assert.equal(p.destination, 'https://example.com/a');
  assert.equal(p.rotating, 2);
});
