import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRules } from './compile-rules.ts';
import type { Rule } from './rule.ts';
import type { RuleFacts } from './rule-facts.ts';
import { SEEN_COOKIE } from './rule-cookie.ts';

const visitor: RuleFacts['visitor'] = {
  country: 'US',
  platform: 'iOS',
  browser: 'Mobile Safari',
  device: 'mobile',
  languages: ['en', 'de'],
  referrerHost: 'm.news.example',
};
const facts = (over: Partial<RuleFacts> & { v?: Partial<RuleFacts['visitor']> } = {}): RuleFacts => ({
  query: '',
  address: '203.0.113.7',
  now: Date.parse('2026-11-27T10:00:00Z'),
  clicks: 0,
  cookie: undefined,
  ...over,
  visitor: { ...visitor, ...over.v },
});
const never = () => assert.fail('no draw expected');
const one = (when: Rule['when']) => compileRules([{ name: null, when, url: 'https://hit.example/' }]);
const holds = (when: Rule['when'], f: RuleFacts = facts()) => one(when).decide(f, never).rule === 0;

/** mulberry32: a seeded draw, so shares are the same on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('the first rule whose conditions all hold decides; none: the link url', () => {
  const rules = compileRules([
    { name: null, when: { country: ['US'], os: ['Android'] }, url: 'https://a.example/' },
    { name: null, when: { country: ['US'] }, url: 'https://b.example/' },
    { name: null, when: {}, url: 'https://c.example/' },
  ]);
  assert.deepEqual(rules.decide(facts(), never), { rule: 1, variant: null, url: 'https://b.example/', cookie: null });
  assert.deepEqual(rules.decide(facts({ v: { platform: 'Android' } }), never).rule, 0);
  assert.deepEqual(rules.decide(facts({ v: { country: 'DE' } }), never).rule, 2);
  const none = compileRules([{ name: null, when: { country: ['FR'] }, url: 'https://a.example/' }]);
  assert.deepEqual(none.decide(facts(), never), { rule: null, variant: null, url: null, cookie: null });
});

test('each condition at its edges', () => {
  assert.equal(holds({ country: ['US'] }), true);
  assert.equal(holds({ country: ['US'] }, facts({ v: { country: null } })), false, 'unknown country');
  assert.equal(holds({ os: ['iOS'] }), true);
  assert.equal(holds({ os: ['Linux'] }, facts({ v: { platform: 'Ubuntu' } })), true, 'Ubuntu is a Linux');
  assert.equal(holds({ os: ['Ubuntu'] }, facts({ v: { platform: 'Linux' } })), false);
  assert.equal(holds({ browser: ['Safari'] }), true, 'Safari matches Mobile Safari');
  assert.equal(holds({ browser: ['Chrome'] }, facts({ v: { browser: 'Chrome WebView' } })), true);
  assert.equal(holds({ browser: ['Opera'] }, facts({ v: { browser: 'Opera Mini' } })), true);
  assert.equal(holds({ browser: ['Chrome'] }, facts({ v: { browser: 'Chromium' } })), true);
  assert.equal(holds({ browser: ['Edge'] }, facts({ v: { browser: 'Chrome' } })), false);
  assert.equal(holds({ device: ['mobile'] }), true);
  assert.equal(holds({ device: ['desktop'] }, facts({ v: { device: null } })), false);
  assert.equal(holds({ language: ['de'] }), true, 'any accepted language');
  assert.equal(holds({ language: ['fr'] }), false);
  assert.equal(holds({ referrer: ['news.example'] }), true, 'a host suffix matches its subdomains');
  assert.equal(holds({ referrer: ['ews.example'] }), false, 'but not a partial label');
  assert.equal(holds({ referrer: ['none'] }, facts({ v: { referrerHost: null } })), true);
  assert.equal(holds({ referrer: ['none'] }), false);
  assert.equal(holds({ query: { utm_source: 'newsletter' } }, facts({ query: 'a=1&utm_source=newsletter' })), true);
  assert.equal(holds({ query: { utm_source: 'newsletter' } }, facts({ query: 'utm_source=news' })), false);
  assert.equal(holds({ query: { ref: '*' } }, facts({ query: 'ref=' })), true, '"*": present, even empty');
  assert.equal(holds({ query: { ref: '*' } }, facts({ query: 'referrer=x' })), false);
  assert.equal(holds({ query: { q: 'a b' } }, facts({ query: 'q=a+b' })), true, 'values are compared decoded');
  const date = { from: '2026-11-27T10:00:00.000Z', to: '2026-11-28T00:00:00.000Z' };
  assert.equal(holds({ date }), true, 'from is inclusive');
  assert.equal(holds({ date }, facts({ now: Date.parse(date.to) })), false, 'to is exclusive');
  assert.equal(holds({ date }, facts({ now: Date.parse(date.from) - 1 })), false);
  assert.equal(holds({ visits: { below: 100 } }, facts({ clicks: 99 })), true);
  assert.equal(holds({ visits: { below: 100 } }, facts({ clicks: 100 })), false);
  assert.equal(holds({ visits: { from: 100 } }, facts({ clicks: 100 })), true);
  assert.equal(holds({ ip: ['203.0.113.0/24'] }), true);
  assert.equal(holds({ ip: ['2001:db8::/32'] }, facts({ address: '2001:db8::5' })), true);
  assert.equal(holds({ ip: ['203.0.113.0/24'] }, facts({ address: '' })), false, 'no address, no match');
  assert.equal(holds({ returning: false }), true);
  assert.equal(holds({ returning: true }, facts({ cookie: SEEN_COOKIE })), true);
  assert.equal(holds({ time: { from: '10:00', to: '11:00', tz: 'UTC' } }), true);
  assert.equal(holds({ time: { from: '11:00', to: '12:00', tz: 'Europe/Berlin' } }), true);
});

test('not negates the set: it holds unless all its conditions do', () => {
  assert.equal(holds({ not: { country: ['US'] } }), false);
  assert.equal(holds({ not: { country: ['US'], os: ['Android'] } }), true, 'US but not Android: the set does not hold');
  assert.equal(holds({ not: { country: ['DE'] } }), true);
  assert.equal(holds({ country: ['US'], not: { device: ['desktop'] } }), true);
});

test('a split shares its visitors by weight (within 3 points) and a new draw is remembered', () => {
  const rules = compileRules([
    {
      name: null,
      when: {},
      split: [
        { url: 'https://x/', weight: 70 },
        { url: 'https://y/', weight: 20 },
        { url: 'https://z/', weight: 10 },
      ],
    },
  ]);
  assert.equal(rules.usesCookie, true);
  const random = seeded(42);
  const counts = [0, 0, 0];
  const n = 20_000;
  for (let i = 0; i < n; i++) counts[rules.decide(facts(), random).variant!]!++;
  assert.ok(Math.abs(counts[0]! / n - 0.7) < 0.03, counts.join(','));
  assert.ok(Math.abs(counts[1]! / n - 0.2) < 0.03, counts.join(','));
  assert.ok(Math.abs(counts[2]! / n - 0.1) < 0.03, counts.join(','));

  const first = rules.decide(facts(), () => 0.95);
  assert.equal(first.variant, 2);
  assert.notEqual(first.cookie, null);
  const again = rules.decide(facts({ cookie: first.cookie! }), never);
  assert.deepEqual(again, { rule: 0, variant: 2, url: 'https://z/', cookie: null }, 'sticky: no draw, no new cookie');
});

test('weights that do not sum to 100 share in proportion', () => {
  const rules = compileRules([
    {
      name: null,
      when: {},
      split: [
        { url: 'https://x/', weight: 1 },
        { url: 'https://y/', weight: 3 },
      ],
    },
  ]);
  assert.equal(rules.decide(facts(), () => 0.2499).variant, 0);
  assert.equal(rules.decide(facts(), () => 0.25).variant, 1);
});

test('a changed split draws its visitors anew; another split of the link keeps its own draw', () => {
  const split = (a: number): Rule => ({
    name: null,
    when: {},
    split: [
      { url: 'https://x/', weight: a },
      { url: 'https://y/', weight: 100 - a },
    ],
  });
  const before = compileRules([split(50)]).decide(facts(), () => 0.9);
  assert.equal(before.variant, 1);
  const after = compileRules([split(60)]).decide(facts({ cookie: before.cookie! }), () => 0.1);
  assert.equal(after.variant, 0, 'drawn again');
  const two = compileRules([{ ...split(50), when: { country: ['DE'] } }, split(50)]);
  const de = two.decide(facts({ v: { country: 'DE' } }), () => 0.9);
  const us = two.decide(facts({ cookie: de.cookie! }), () => 0.1);
  const deAgain = two.decide(facts({ v: { country: 'DE' }, cookie: us.cookie! }), never);
  assert.equal(deAgain.variant, 1);
});

test('a link whose rules remember nobody sets no cookie; one with `returning` marks the first visit', () => {
  assert.equal(one({ country: ['US'] }).usesCookie, false);
  const returning = compileRules([{ name: null, when: { returning: true }, url: 'https://back.example/' }]);
  const first = returning.decide(facts(), never);
  assert.deepEqual(first, { rule: null, variant: null, url: null, cookie: SEEN_COOKIE });
  assert.deepEqual(returning.decide(facts({ cookie: first.cookie }), never), {
    rule: 0,
    variant: null,
    url: 'https://back.example/',
    cookie: null,
  });
});

test('trace: each rule up to the deciding one, with each condition', () => {
  const rules = compileRules([
    { name: null, when: { country: ['US'], os: ['Windows'] }, url: 'https://a/' },
    { name: null, when: { language: ['de'] }, url: 'https://b/' },
    { name: null, when: {}, url: 'https://c/' },
  ]);
  assert.deepEqual(rules.trace(facts()), [
    {
      rule: 0,
      matched: false,
      conditions: [
        { condition: 'country', matched: true },
        { condition: 'os', matched: false },
      ],
    },
    { rule: 1, matched: true, conditions: [{ condition: 'language', matched: true }] },
  ]);
});

test('links holding the same conditions share their compiled tests; a visit reads its query once for all of them', () => {
  const a = compileRules([
    { name: null, when: { query: { utm_source: 'news' }, country: ['US'] }, url: 'https://a.example/' },
  ]);
  const b = compileRules([
    { name: null, when: { query: { utm_source: 'news' }, country: ['US'] }, url: 'https://b.example/' },
  ]);
  assert.equal(a.decide(facts({ query: 'utm_source=news' }), never).url, 'https://a.example/');
  assert.equal(b.decide(facts({ query: 'utm_source=news' }), never).url, 'https://b.example/');
  assert.equal(a.decide(facts({ query: 'utm_source=other' }), never).rule, null, 'a new query is read anew');
  assert.equal(b.decide(facts({ query: '' }), never).rule, null, 'an empty query has no parameter');
});
