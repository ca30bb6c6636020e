// phpShort's targeting lists compiled into the decider's rules (docs/design/rules.md): the platform
// match, the language weight order, rotation, decisions naming no rule, and the same answers as
// the evaluator the redirect ran before, over a table of links and visitors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Visitor } from '../redirect/visitor.ts';
import { parseAcceptLanguage } from '../targeting/accept-language.ts';
import { PLATFORMS, TargetType, type KeyedTarget, type Platform, type Targets } from '../targeting/target.ts';
import { compileLinkRules, compileTargeting } from './compile-targeting.ts';
import type { RuleFacts } from './rule-facts.ts';

const none: Targets = { country: null, platform: null, language: null, rotation: null };
const never = () => assert.fail('no draw expected');
const facts = (visitor: Partial<RuleFacts['visitor']> = {}): RuleFacts => ({
  visitor: {
    country: null,
    platform: null,
    languages: [],
    browser: null,
    device: null,
    referrerHost: null,
    ...visitor,
  },
  query: '',
  address: '',
  now: 0,
  clicks: 0,
  cookie: undefined,
});

/** The entry's URL a visitor on `platform` is sent to, or null for the link's url. */
const matchPlatform = (entries: KeyedTarget[], platform: Platform | null) =>
  compileTargeting(TargetType.Platform, { ...none, platform: entries }).decide(facts({ platform }), never).url;

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

test("a language list follows the visitor's weights, not the list's order: fr, de;q=0.5 goes to fr", () => {
  const rules = compileTargeting(TargetType.Language, {
    ...none,
    language: [
      { key: 'de', value: 'https://de.example/' },
      { key: 'fr', value: 'https://fr.example/' },
    ],
  });
  const to = (header: string) => rules.decide(facts({ languages: parseAcceptLanguage(header) }), never).url;
  assert.equal(to('fr, de;q=0.5'), 'https://fr.example/');
  assert.equal(to('de;q=0.5, fr;q=0.9'), 'https://fr.example/');
  assert.equal(to('ja, de;q=0.1'), 'https://de.example/');
  assert.equal(to('ja'), null);
  assert.equal(to('fr;q=0, de'), 'https://de.example/', 'q=0 is refused');
});

test('a rotation hands its entries to the counter; one entry is a plain destination; no list, no rule', () => {
  const urls = ['https://r1.example/', 'https://r2.example/'];
  const rotation = compileTargeting(TargetType.Rotation, { ...none, rotation: urls.map((value) => ({ value })) });
  assert.deepEqual(rotation.decide(facts(), never), {
    rule: null,
    variant: null,
    url: null,
    rotation: urls,
    cookie: null,
  });
  const one = compileTargeting(TargetType.Rotation, { ...none, rotation: [{ value: urls[0]! }] });
  assert.deepEqual(one.decide(facts(), never), { rule: null, variant: null, url: urls[0], cookie: null });
  assert.equal(compileTargeting(TargetType.Rotation, { ...none, rotation: [] }).decide(facts(), never).url, null);
});

test('decisions name no rule, the trace is empty, no cookie is read or set; plain links share one decider', () => {
  const country = compileTargeting(TargetType.Country, { ...none, country: [{ key: 'US', value: 'https://us/' }] });
  assert.deepEqual(country.decide(facts({ country: 'US' }), never), {
    rule: null,
    variant: null,
    url: 'https://us/',
    cookie: null,
  });
  assert.deepEqual(country.trace(facts({ country: 'US' })), []);
  assert.deepEqual([country.phpShort, country.usesCookie, country.rules], [true, false, []]);
  const plain = compileLinkRules({ rules: null, targetType: TargetType.None, targets: none });
  assert.equal(plain, compileTargeting(TargetType.Country, none), 'one object for every link that decides nothing');
  assert.equal(plain.phpShort, true);
  const own = compileLinkRules({
    rules: [{ name: null, when: { country: ['US'] }, url: 'https://own/' }],
    targetType: TargetType.Country,
    targets: { ...none, country: [{ key: 'US', value: 'https://us/' }] },
  });
  assert.deepEqual(
    [own.phpShort, own.decide(facts({ country: 'US' }), never).rule],
    [false, 0],
    'rules of its own decide, not its lists',
  );
});

test('a decision met again is the same object: a visit allocates none for it', () => {
  const rules = compileTargeting(TargetType.Language, { ...none, language: [{ key: 'en', value: 'https://en/' }] });
  const a = rules.decide(facts({ languages: ['en'] }), never);
  assert.equal(rules.decide(facts({ languages: ['de', 'en'] }), never), a);
  assert.equal(rules.decide(facts(), never), rules.decide(facts({ languages: ['ja'] }), never));
});

// The evaluator the redirect ran before phpShort's lists were compiled into rules, kept as the
// oracle the compiled rules must agree with.
function previousChoice(
  targetType: TargetType,
  targets: Targets,
  visitor: Pick<Visitor, 'country' | 'platform' | 'languages'>,
) {
  const valueFor = (list: KeyedTarget[] | null, key: string) => list?.find((e) => e.key === key)?.value ?? null;
  let url: string | null = null;
  switch (targetType) {
    case TargetType.Country:
      url = visitor.country === null ? null : valueFor(targets.country, visitor.country);
      break;
    case TargetType.Platform: {
      const entries = targets.platform ?? [];
      const p = visitor.platform;
      const exact = p === null ? undefined : entries.find((e) => e.key === p);
      url = exact?.value ?? (p === 'Ubuntu' ? (entries.find((e) => e.key === 'Linux')?.value ?? null) : null);
      break;
    }
    case TargetType.Language:
      for (const lang of visitor.languages) {
        url = valueFor(targets.language, lang);
        if (url !== null) break;
      }
      break;
    case TargetType.Rotation: {
      const entries = (targets.rotation ?? []).map((r) => r.value);
      if (entries.length > 1) return { rotate: entries };
      url = entries[0] ?? null;
      break;
    }
  }
  return { url };
}

const LISTS: Targets[] = [
  none,
  {
    country: [
      { key: 'US', value: 'https://us/' },
      { key: 'GB', value: 'https://gb/' },
    ],
    platform: [
      { key: 'Linux', value: 'https://linux/' },
      { key: 'iOS', value: 'https://ios/' },
      { key: 'Ubuntu', value: 'https://ubuntu/' },
    ],
    language: [
      { key: 'de', value: 'https://de/' },
      { key: 'en', value: 'https://en/' },
      { key: 'fr', value: 'https://fr/' },
    ],
    rotation: [{ value: 'https://r1/' }, { value: 'https://r2/' }, { value: 'https://r3/' }],
  },
  {
    country: [{ key: 'FR', value: 'https://fr-country/' }],
    platform: [
      { key: 'Linux', value: 'https://linux/' },
      { key: 'Windows', value: 'https://windows/' },
    ],
    language: [{ key: 'ja', value: 'https://ja/' }],
    rotation: [{ value: 'https://only/' }],
  },
  { country: [], platform: [{ key: 'Ubuntu', value: 'https://ubuntu/' }], language: [], rotation: [] },
];
const COUNTRIES = [null, 'US', 'GB', 'FR', 'DE'];
const PLATFORM_CHOICES: Array<Platform | null> = [null, ...PLATFORMS];
const LANGUAGE_CHOICES = [[], ['fr', 'en', 'de'], ['de', 'en'], ['en'], ['ja', 'fr'], ['pt'], ['fr', 'de']];
const TYPES = [TargetType.None, TargetType.Country, TargetType.Platform, TargetType.Language, TargetType.Rotation];

test('the compiled rules answer as the previous evaluator over every link and visitor of a table', () => {
  let compared = 0;
  for (const targetType of TYPES) {
    for (const targets of LISTS) {
      const rules = compileTargeting(targetType, targets);
      for (const country of COUNTRIES) {
        for (const platform of PLATFORM_CHOICES) {
          for (const languages of LANGUAGE_CHOICES) {
            const visitor = { country, platform, languages };
            const decision = rules.decide(facts(visitor), never);
            const now = decision.rotation !== undefined ? { rotate: decision.rotation } : { url: decision.url };
            assert.deepEqual(
              now,
              previousChoice(targetType, targets, visitor),
              JSON.stringify({ targetType, targets, visitor }),
            );
            assert.equal(decision.rule, null);
            compared++;
          }
        }
      }
    }
  }
  assert.equal(
    compared,
    TYPES.length * LISTS.length * COUNTRIES.length * PLATFORM_CHOICES.length * LANGUAGE_CHOICES.length,
  );
});
