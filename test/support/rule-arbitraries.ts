// fast-check arbitraries of rules and visitors, drawn from small pools so that conditions hold
// often enough for every branch of a decision to be met (explain against the redirect).
import fc from 'fast-check';
import type { Conditions, Rule } from '../../src/core/rules/rule.ts';
import type { Visitor } from '../../src/core/redirect/visitor.ts';
import { PLATFORMS } from '../../src/core/targeting/target.ts';

export const COUNTRIES = ['US', 'DE', 'FR', 'GB'] as const;
export const LANGUAGES = ['de', 'en', 'fr'] as const;
export const REFERRERS = ['news.example', 'm.news.example', 'social.example'] as const;
export const QUERIES = ['', 'utm_source=newsletter', 'utm_source=ads&x=1', 'x=2'] as const;
export const ADDRESSES_V4 = ['198.51.100.7', '203.0.113.9', '192.0.2.200'] as const;
const BROWSER_FAMILIES = ['Chrome', 'Safari', 'Firefox', 'Edge', 'Samsung Internet', 'Opera'] as const;
const RECORDED_BROWSERS = [
  'Chrome',
  'Mobile Safari',
  'Safari',
  'Firefox',
  'Edge',
  'Samsung Internet',
  'Opera Mini',
  'Chromium',
] as const;
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const TIMES = ['00:00', '06:30', '09:00', '12:00', '17:00', '22:15'] as const;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata'] as const;
export const YEAR_FROM = Date.parse('2026-01-01T00:00:00Z');
export const YEAR_TO = Date.parse('2027-01-01T00:00:00Z');

const some = <T>(pool: readonly T[]) => fc.subarray([...pool], { minLength: 1, maxLength: 3 });
const instant = fc.integer({ min: YEAR_FROM, max: YEAR_TO - 1 });

/** Which conditions a draw may use: the HTTP agreement leaves out those a live clock or count moves. */
export interface RuleDraw {
  time: boolean;
  visits: boolean;
  split: boolean;
}

function conditionsArb(draw: RuleDraw, withNot: boolean): fc.Arbitrary<Conditions> {
  const parts: Record<string, fc.Arbitrary<unknown>> = {
    country: some(COUNTRIES),
    os: some(PLATFORMS),
    browser: some(BROWSER_FAMILIES),
    device: some(['desktop', 'mobile', 'tablet']),
    language: some(LANGUAGES),
    referrer: some([...REFERRERS, 'none']),
    query: fc.constantFrom({ utm_source: 'newsletter' }, { utm_source: '*' }, { x: '2' }),
    ip: fc.constantFrom(['198.51.100.0/24'], ['203.0.113.9'], ['2001:db8::/32', '192.0.2.0/25']),
    returning: fc.boolean(),
  };
  if (draw.time) {
    parts.time = fc.record(
      {
        days: some(DAYS),
        from: fc.constantFrom(...TIMES),
        to: fc.constantFrom(...TIMES),
        tz: fc.constantFrom(...ZONES),
      },
      { requiredKeys: ['tz'] },
    );
    parts.date = fc
      .tuple(instant, instant)
      .map(([a, b]) => ({ from: new Date(Math.min(a, b)).toISOString(), to: new Date(Math.max(a, b)).toISOString() }));
  }
  if (draw.visits)
    parts.visits = fc.record(
      { below: fc.integer({ min: 0, max: 12 }), from: fc.integer({ min: 0, max: 6 }) },
      { requiredKeys: [] },
    );
  if (withNot) parts.not = conditionsArb(draw, false).filter((c) => Object.keys(c).length > 0);
  // Zero to three conditions a rule: more would almost never all hold.
  return fc
    .subarray(Object.keys(parts), { maxLength: withNot ? 3 : 2 })
    .chain((keys) => fc.record(Object.fromEntries(keys.map((k) => [k, parts[k]!])))) as fc.Arbitrary<Conditions>;
}

const destination = fc.integer({ min: 0, max: 99 }).map((n) => `https://d${n}.example/p?k=${n}`);

export function ruleArb(draw: RuleDraw): fc.Arbitrary<Rule> {
  const name = fc.option(fc.constantFrom('A', 'B', 'Office'), { nil: null });
  const plain = fc.record({ name, when: conditionsArb(draw, true), url: destination });
  if (!draw.split) return plain;
  const split = fc.record({
    name,
    when: conditionsArb(draw, true),
    split: fc.array(fc.record({ url: destination, weight: fc.integer({ min: 1, max: 100 }) }), {
      minLength: 2,
      maxLength: 4,
    }),
  });
  return fc.oneof({ arbitrary: plain, weight: 3 }, { arbitrary: split, weight: 1 });
}

export function rulesArb(draw: RuleDraw): fc.Arbitrary<Rule[]> {
  return fc.array(ruleArb(draw), { minLength: 1, maxLength: 6 });
}

export const visitorArb: fc.Arbitrary<Visitor> = fc.record({
  country: fc.option(fc.constantFrom(...COUNTRIES), { nil: null }),
  platform: fc.option(fc.constantFrom(...PLATFORMS), { nil: null }),
  languages: fc.subarray([...LANGUAGES]),
  browser: fc.option(fc.constantFrom(...RECORDED_BROWSERS), { nil: null }),
  device: fc.option(fc.constantFrom('desktop', 'mobile', 'tablet'), { nil: null }),
  isBot: fc.boolean(),
  refusesTracking: fc.boolean(),
  referrerHost: fc.option(fc.constantFrom(...REFERRERS), { nil: null }),
});

export const queryArb = fc.constantFrom(...QUERIES);
export const addressArb = fc.constantFrom('', ...ADDRESSES_V4, '2001:db8::1');
export const instantArb = instant;
