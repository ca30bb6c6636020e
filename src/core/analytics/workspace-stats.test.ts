import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foldLinks, hostOf, linkEntries, qrEntries, utmOf, type LinkFacts } from './workspace-stats.ts';

const link = (id: number, over: Partial<LinkFacts> = {}): LinkFacts => ({
  id,
  alias: `a${id}`,
  url: 'https://example.com/',
  title: null,
  space: null,
  tags: [],
  ...over,
});

const facts = new Map<number, LinkFacts>([
  [1, link(1, { tags: ['Launch', 'Q3'], space: 'Ads', url: 'https://WWW.Shop.example/x?utm_source=news&utm_medium=' })],
  [2, link(2, { tags: ['Q3'], url: 'https://blog.example/?utm_source=news' })],
  [3, link(3, { url: 'not a url' })],
]);
const counts = [
  { linkId: 1, clicks: 5, qr: 2 },
  { linkId: 2, clicks: 2, qr: 0 },
  { linkId: 3, clicks: 1, qr: 1 },
  { linkId: 9, clicks: 4, qr: 0 }, // deleted since
];

test('a link with two tags counts under both; untagged under null; a deleted link under none', () => {
  assert.deepEqual(foldLinks(counts, facts, 'tags'), [
    { value: 'Launch', count: 5 },
    { value: 'Q3', count: 7 },
    { value: null, count: 1 },
  ]);
});

test('spaces, UTM values (an empty one is none) and destination hosts (lower-case, no www.)', () => {
  assert.deepEqual(foldLinks(counts, facts, 'spaces'), [
    { value: 'Ads', count: 5 },
    { value: null, count: 3 },
  ]);
  assert.deepEqual(foldLinks(counts, facts, 'utm_source'), [
    { value: 'news', count: 7 },
    { value: null, count: 1 },
  ]);
  assert.deepEqual(foldLinks(counts, facts, 'utm_medium'), [{ value: null, count: 8 }]);
  assert.deepEqual(foldLinks(counts, facts, 'destinations'), [
    { value: 'shop.example', count: 5 },
    { value: 'blog.example', count: 2 },
    { value: null, count: 1 },
  ]);
  assert.equal(hostOf('https://www.a.example:8080/p'), 'a.example');
  assert.equal(utmOf('https://a.example/?utm_campaign=spring%20sale', 'utm_campaign'), 'spring sale');
});

test('links by alias with their ids; QR scans against every other visit (a deleted link counted too)', () => {
  assert.deepEqual(linkEntries(counts, facts), [
    { value: 'a1', count: 5, linkId: 1 },
    { value: 'a2', count: 2, linkId: 2 },
    { value: 'a3', count: 1, linkId: 3 },
  ]);
  assert.deepEqual(qrEntries(counts), [
    { value: 'qr', count: 3 },
    { value: 'link', count: 9 },
  ]);
});
