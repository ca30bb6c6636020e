import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchPlatform } from './platform-match.ts';
import { PLATFORMS } from './target.ts';

const all = PLATFORMS.map((key) => ({ key, value: `https://example.com/${encodeURIComponent(key)}` }));

test('each of the seven platforms matches its own entry', () => {
  for (const p of PLATFORMS) assert.equal(matchPlatform(all, p), `https://example.com/${encodeURIComponent(p)}`);
});

test('an Ubuntu visitor prefers an Ubuntu entry and falls back to a Linux one', () => {
  const both = [
    { key: 'Linux', value: 'L' },
    { key: 'Ubuntu', value: 'U' },
  ];
  assert.equal(matchPlatform(both, 'Ubuntu'), 'U');
  assert.equal(matchPlatform([{ key: 'Linux', value: 'L' }], 'Ubuntu'), 'L');
  assert.equal(matchPlatform([{ key: 'Windows', value: 'W' }], 'Ubuntu'), null);
});

test('a Linux visitor does not take an Ubuntu entry', () => {
  assert.equal(matchPlatform([{ key: 'Ubuntu', value: 'U' }], 'Linux'), null);
});

test('Android and Chrome OS never fall back to Linux', () => {
  const linuxOnly = [
    { key: 'Linux', value: 'L' },
    { key: 'Ubuntu', value: 'U' },
  ];
  assert.equal(matchPlatform(linuxOnly, 'Android'), null);
  assert.equal(matchPlatform(linuxOnly, 'Chrome OS'), null);
});

test('an unknown platform or an empty list matches nothing', () => {
  assert.equal(matchPlatform(all, null), null);
  assert.equal(matchPlatform([], 'iOS'), null);
});
