// Explain against the redirect's own visit (core/redirect/visit.ts): 10 000 drawn links and
// visitors, each visit run for real on in-memory ports and explained; they must agree every time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileRules } from './compile-rules.ts';
import { compileTargeting } from './compile-targeting.ts';
import { explainVisit, type ExplainProbe } from './explain.ts';
import { SEEN_COOKIE } from './rule-cookie.ts';
import { visit, type VisitResult } from '../redirect/visit.ts';
import type { RedirectLink } from '../redirect/redirect-link.ts';
import type { ConsentMode } from '../redirect/resolve-visit.ts';
import { isExpired } from '../expiration/expiry.ts';
import { TargetType, type Targets } from '../targeting/target.ts';
import { aRedirectLink } from '../../../test/support/redirect-links.ts';
import { fakeVisitPorts } from '../../../test/support/fakes/visit-fakes.ts';
import {
  addressArb,
  instantArb,
  queryArb,
  rulesArb,
  visitorArb,
  YEAR_FROM,
  YEAR_TO,
} from '../../../test/support/rule-arbitraries.ts';

const NOW = Date.parse('2026-11-27T10:00:00Z');

/** phpShort's four lists; target_type chooses the one that acts. */
const TARGETS: Targets = {
  country: [
    { key: 'US', value: 'https://us.example/' },
    { key: 'FR', value: 'https://fr.example/' },
  ],
  platform: [
    { key: 'Linux', value: 'https://linux.example/' },
    { key: 'iOS', value: 'https://ios.example/' },
  ],
  language: [
    { key: 'de', value: 'https://de.example/' },
    { key: 'fr', value: 'https://fr.example/' },
  ],
  rotation: [{ value: 'https://r0.example/' }, { value: 'https://r1.example/' }, { value: 'https://r2.example/' }],
};

const linkArb: fc.Arbitrary<RedirectLink> = fc
  .record({
    rules: fc.option(rulesArb({ time: true, visits: true, split: true }), { nil: null, freq: 6 }),
    targetType: fc.constantFrom(...Object.values(TargetType)),
    disabled: fc.boolean().map((b) => b && Math.random() < 0.2),
    password: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    pixels: fc.boolean(),
    cap: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null, freq: 3 }),
    clicks: fc.integer({ min: 0, max: 12 }),
    endsAt: fc.option(fc.integer({ min: YEAR_FROM, max: YEAR_TO }), { nil: null, freq: 4 }),
    expirationUrl: fc.option(fc.constant('https://gone.example/'), { nil: null }),
    lastRotation: fc.integer({ min: 0, max: 5 }),
  })
  .map((d) =>
    aRedirectLink({
      url: 'https://default.example/?from=link',
      rules: d.rules !== null ? compileRules(d.rules) : compileTargeting(d.targetType, TARGETS),
      disabled: d.disabled,
      passwordHash: d.password ? 'hash' : null,
      pixels: d.pixels ? [{ type: 'facebook', value: '1234567890' }] : [],
      expirationClicks: d.cap,
      clicks: d.clicks,
      endsAt: d.endsAt,
      expirationUrl: d.expirationUrl,
      lastRotation: d.lastRotation,
    }),
  );

const probeArb: fc.Arbitrary<ExplainProbe> = fc.record({
  visitor: visitorArb,
  query: queryArb,
  address: addressArb,
  at: instantArb,
  cookie: fc.constantFrom(undefined, SEEN_COOKIE, 'zz-1'),
});

/** The real visit, as the redirect runs it, with the same draw explain is given. */
function realVisit(link: RedirectLink, probe: ExplainProbe, consentMode: ConsentMode, draw: number, unlocked: boolean) {
  const ports = { ...fakeVisitPorts(probe.at), random: () => draw };
  const request = {
    method: 'GET',
    query: probe.query,
    address: probe.address,
    userAgent: 'UA',
    ruleCookie: probe.cookie,
  };
  const result = visit(ports, link, probe.visitor, request, { unlocked, consent: 'yes', consentMode }) as VisitResult;
  return { result, clicks: ports.sink.recorded };
}

test('explain and the redirect agree on 10 000 drawn links and visitors', () => {
  fc.assert(
    fc.property(
      linkArb,
      probeArb,
      fc.constantFrom<ConsentMode>('ask', 'implied', 'never'),
      fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      (link, probe, consentMode, draw) => {
        const explained = explainVisit(link, probe, { consentMode, random: () => draw });
        let real = realVisit(link, probe, consentMode, draw, false);
        if (real.result.kind === 'locked') {
          assert.equal(explained.outcome, 'password');
          assert.equal(explained.countsClick, false);
          real = realVisit(link, probe, consentMode, draw, true);
          // Behind the password: the same destination, unless the cap has run out by then.
          if (real.result.kind === 'go') assert.equal(explained.url, real.result.destination);
        } else if (real.result.kind === 'go') {
          assert.equal(explained.outcome, real.result.pixels.length > 0 ? 'pixels' : 'redirect');
          assert.equal(explained.firesPixels, real.result.pixels.length > 0);
          assert.equal(explained.url, real.result.destination);
          assert.equal(explained.countsClick, real.clicks.length === 1 && !real.clicks[0]!.click.isBot);
        } else if (real.result.kind === 'expired') {
          assert.equal(explained.outcome, 'expired');
          assert.equal(explained.url, real.result.expirationUrl);
          assert.equal(explained.countsClick, false);
        } else {
          assert.equal(real.result.kind, 'disabled', 'consent is taken as given: never asked');
          assert.equal(explained.outcome, 'disabled');
        }
        // phpShort's lists name no rule, in explain as in the click.
        if (link.rules.phpShort) {
          assert.deepEqual([explained.rule, explained.variant, explained.trace], [null, null, []]);
          for (const { click } of real.clicks) assert.deepEqual([click.rule, click.variant], [null, null]);
        }
        // The trace stops at the deciding rule, and only there does a rule match.
        const decided = explained.outcome !== 'disabled' && !isExpired(link, probe.at);
        if (decided) {
          const last = explained.trace.at(-1);
          if (explained.rule === null) {
            assert.equal(explained.trace.length, link.rules.rules.length);
            assert.ok(explained.trace.every((r) => !r.matched));
          } else {
            assert.equal(last?.rule, explained.rule);
            assert.equal(last?.matched, true);
            assert.ok(explained.trace.slice(0, -1).every((r) => !r.matched));
          }
        }
      },
    ),
    { numRuns: 10_000, seed: 34 },
  );
});

test('a trace names each condition, its answer and the value it read', () => {
  const link = aRedirectLink({
    rules: compileRules([
      { name: 'US iPhone', when: { country: ['US'], os: ['iOS'] }, url: 'https://a.example/' },
      {
        name: 'Office hours',
        when: { time: { days: ['fri'], from: '09:00', to: '17:00', tz: 'Europe/Berlin' } },
        url: 'https://d.example/',
      },
    ]),
  });
  const visitor = {
    country: 'US',
    platform: 'Windows' as const,
    languages: ['de'],
    browser: 'Chrome',
    device: 'desktop',
    isBot: false,
    refusesTracking: false,
    referrerHost: null,
  };
  const e = explainVisit(
    link,
    { visitor, query: 'utm_source=x', address: '', at: NOW, cookie: undefined },
    { consentMode: 'ask', random: Math.random },
  );
  assert.deepEqual(e, {
    outcome: 'redirect',
    url: 'https://d.example/?utm_source=x',
    rule: 1,
    variant: null,
    firesPixels: false,
    countsClick: true,
    trace: [
      {
        rule: 0,
        name: 'US iPhone',
        matched: false,
        conditions: [
          { condition: 'country', matched: true, value: 'US' },
          { condition: 'os', matched: false, value: 'Windows' },
        ],
      },
      {
        rule: 1,
        name: 'Office hours',
        matched: true,
        conditions: [{ condition: 'time', matched: true, value: 'fri 11:00 Europe/Berlin' }],
      },
    ],
  });
});

test('a split names its variant; a disabled link and a password say so first', () => {
  const split = compileRules([
    {
      name: null,
      when: {},
      split: [
        { url: 'https://x.example/', weight: 70 },
        { url: 'https://y.example/', weight: 30 },
      ],
    },
  ]);
  const visitor = {
    country: null,
    platform: null,
    languages: [],
    browser: null,
    device: null,
    isBot: false,
    refusesTracking: false,
    referrerHost: null,
  };
  const probe = { visitor, query: '', address: '', at: NOW, cookie: undefined };
  const options = { consentMode: 'ask' as const, random: () => 0.8 };
  assert.deepEqual(pick(explainVisit(aRedirectLink({ rules: split }), probe, options)), {
    outcome: 'redirect',
    url: 'https://y.example/',
    rule: 0,
    variant: 1,
  });
  assert.deepEqual(pick(explainVisit(aRedirectLink({ rules: split, passwordHash: 'h' }), probe, options)), {
    outcome: 'password',
    url: 'https://y.example/',
    rule: 0,
    variant: 1,
  });
  assert.deepEqual(pick(explainVisit(aRedirectLink({ rules: split, disabled: true }), probe, options)), {
    outcome: 'disabled',
    url: null,
    rule: null,
    variant: null,
  });
  const bot = explainVisit(
    aRedirectLink({ pixels: [{ type: 'facebook', value: '1' }] }),
    { ...probe, visitor: { ...visitor, isBot: true } },
    options,
  );
  assert.deepEqual([bot.outcome, bot.countsClick], ['redirect', false], 'a bot fires no pixels and counts apart');
});

const pick = (e: ReturnType<typeof explainVisit>) => ({
  outcome: e.outcome,
  url: e.url,
  rule: e.rule,
  variant: e.variant,
});
