import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseDestination } from './choose-destination.ts';
import { TargetType, type Targets } from './target.ts';

const url = 'https://example.com/default';
const targets: Targets = {
  country: [
    { key: 'US', value: 'https://us.example' },
    { key: 'GB', value: 'https://gb.example' },
  ],
  platform: [
    { key: 'iOS', value: 'https://ios.example' },
    { key: 'Linux', value: 'https://linux.example' },
  ],
  language: [
    { key: 'de', value: 'https://de.example' },
    { key: 'en', value: 'https://en.example' },
  ],
  rotation: [{ value: 'https://r1.example' }, { value: 'https://r2.example' }, { value: 'https://r3.example' }],
};
const visitor = { country: 'GB', platform: 'iOS' as const, languages: ['fr', 'en', 'de'] };
const fixed = (u: string) => ({ kind: 'fixed', url: u });

test('no targeting: the url, whatever lists exist', () => {
  assert.deepEqual(chooseDestination({ url, targetType: TargetType.None, targets }, visitor), fixed(url));
});

test('country', () => {
  const link = { url, targetType: TargetType.Country, targets };
  assert.deepEqual(chooseDestination(link, visitor), fixed('https://gb.example'));
  assert.deepEqual(chooseDestination(link, { ...visitor, country: 'FR' }), fixed(url));
  assert.deepEqual(chooseDestination(link, { ...visitor, country: null }), fixed(url));
});

test('platform, with the Ubuntu-to-Linux fallback', () => {
  const link = { url, targetType: TargetType.Platform, targets };
  assert.deepEqual(chooseDestination(link, visitor), fixed('https://ios.example'));
  assert.deepEqual(chooseDestination(link, { ...visitor, platform: 'Ubuntu' }), fixed('https://linux.example'));
  assert.deepEqual(chooseDestination(link, { ...visitor, platform: 'Android' }), fixed(url));
  assert.deepEqual(chooseDestination(link, { ...visitor, platform: null }), fixed(url));
});

test('language: the best-weighted language that has an entry', () => {
  const link = { url, targetType: TargetType.Language, targets };
  assert.deepEqual(chooseDestination(link, visitor), fixed('https://en.example'));
  assert.deepEqual(chooseDestination(link, { ...visitor, languages: ['de', 'en'] }), fixed('https://de.example'));
  assert.deepEqual(chooseDestination(link, { ...visitor, languages: ['ja'] }), fixed(url));
  assert.deepEqual(chooseDestination(link, { ...visitor, languages: [] }), fixed(url));
});

test("rotation returns the entries for the caller's atomic counter", () => {
  const link = { url, targetType: TargetType.Rotation, targets };
  assert.deepEqual(chooseDestination(link, visitor), {
    kind: 'rotate',
    entries: ['https://r1.example', 'https://r2.example', 'https://r3.example'],
  });
  const one = { ...targets, rotation: [{ value: 'https://only.example' }] };
  assert.deepEqual(chooseDestination({ ...link, targets: one }, visitor), fixed('https://only.example'));
  assert.deepEqual(chooseDestination({ ...link, targets: { ...targets, rotation: [] } }, visitor), fixed(url));
  assert.deepEqual(chooseDestination({ ...link, targets: { ...targets, rotation: null } }, visitor), fixed(url));
});

test('a missing list for the chosen type falls back to the url', () => {
  const none: Targets = { country: null, platform: null, language: null, rotation: null };
  for (const targetType of [TargetType.Country, TargetType.Platform, TargetType.Language, TargetType.Rotation]) {
    assert.deepEqual(chooseDestination({ url, targetType, targets: none }, visitor), fixed(url), String(targetType));
  }
});

test('only the list named by target_type acts', () => {
  // Lists kept from an earlier target_type must not leak into the current one.
  const countryOnly: Targets = { ...targets, platform: null, language: null, rotation: null };
  for (const targetType of [TargetType.Platform, TargetType.Language, TargetType.Rotation]) {
    assert.deepEqual(
      chooseDestination({ url, targetType, targets: countryOnly }, visitor),
      fixed(url),
      String(targetType),
    );
  }
  const languageOnly: Targets = { ...targets, country: null, platform: null, rotation: null };
  assert.deepEqual(
    chooseDestination({ url, targetType: TargetType.Country, targets: languageOnly }, visitor),
    fixed(url),
  );
});
