// The visit as core decides it (api.md §7), on in-memory fakes of its ports: every branch, with
// ports that answer at once (memory) and through promises (a shared store).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTargeting } from '../rules/compile-targeting.ts';
import { TargetType } from '../targeting/target.ts';
import type { RedirectLink } from './redirect-link.ts';
import type { Visitor } from './visitor.ts';
import { visit, type VisitAccess, type VisitRequest, type VisitResult } from './visit.ts';
import { aRedirectLink } from '../../../test/support/redirect-links.ts';
import { fakeVisitPorts } from '../../../test/support/fakes/visit-fakes.ts';

const NOW = Date.parse('2026-11-25T08:30:00Z');
const PERSON: Visitor = {
  country: 'FR',
  platform: 'Windows',
  languages: ['fr', 'en'],
  browser: 'Firefox',
  device: 'desktop',
  isBot: false,
  refusesTracking: false,
  referrerHost: 'news.example',
};
const BOT: Visitor = { ...PERSON, isBot: true };
const GET: VisitRequest = { method: 'GET', query: '', address: '192.0.2.7', userAgent: 'UA' };
const HEAD: VisitRequest = { ...GET, method: 'HEAD' };
const ASK: VisitAccess = { unlocked: false, consent: null, consentMode: 'ask' };
const PIXEL = { type: 'facebook' as const, value: '1234567890' };
const ROTATING: Partial<RedirectLink> = {
  rules: compileTargeting(TargetType.Rotation, {
    country: null,
    platform: null,
    language: null,
    rotation: [{ value: 'https://a.example/' }, { value: 'https://b.example/' }, { value: 'https://c.example/' }],
  }),
  lastRotation: 0,
};

for (const later of [false, true]) {
  describe(`the visit, ports answering ${later ? 'through promises' : 'at once'}`, () => {
    const run = async (link: RedirectLink, visitor = PERSON, request = GET, access = ASK) => {
      const ports = fakeVisitPorts(NOW, later);
      const results: VisitResult[] = [await visit(ports, link, visitor, request, access)];
      return {
        ports,
        results,
        again: async (v = visitor, r = request) => results.push(await visit(ports, link, v, r, access)),
      };
    };

    test('a plain link: on to its URL with the query merged, one click with the visitor and the stamp', async () => {
      const { ports, results } = await run(aRedirectLink({ url: 'https://example.com/p?a=1' }), PERSON, {
        ...GET,
        query: 'utm_source=x',
      });
      assert.deepEqual(results, [{ kind: 'go', destination: 'https://example.com/p?a=1&utm_source=x', pixels: [] }]);
      assert.equal(ports.sink.recorded.length, 1);
      const { click, rotation } = ports.sink.recorded[0]!;
      assert.equal(rotation, undefined);
      assert.deepEqual(click, {
        linkId: 1,
        accountId: 10,
        at: NOW,
        day: '2026-11-25',
        hour: 8,
        visitor: 'v:192.0.2.7',
        country: 'FR',
        city: null,
        browser: 'Firefox',
        platform: 'Windows',
        device: 'desktop',
        language: 'fr',
        referrerHost: 'news.example',
        isBot: false,
        rule: null,
        variant: null,
        qr: false,
      });
    });

    test('HEAD: the answer a GET would get, without a click', async () => {
      const { ports, results } = await run(aRedirectLink(), PERSON, HEAD);
      assert.equal(results[0]!.kind, 'go');
      assert.equal(ports.sink.recorded.length, 0);
    });

    test('a bot is sent on and counted as a bot, with no visitor hash', async () => {
      const { ports } = await run(aRedirectLink(), BOT);
      assert.equal(ports.sink.recorded[0]!.click.isBot, true);
      assert.equal(ports.sink.recorded[0]!.click.visitor, null);
    });

    test('disabled, expired by date, locked, asking consent: answered without a click, the cap or the rotation', async () => {
      const cases: Array<[Partial<RedirectLink>, VisitAccess, VisitResult]> = [
        [{ disabled: true }, ASK, { kind: 'disabled' }],
        [
          { endsAt: NOW, expirationUrl: 'https://example.com/over' },
          ASK,
          { kind: 'expired', expirationUrl: 'https://example.com/over' },
        ],
        [{ passwordHash: 'hash' }, ASK, { kind: 'locked' }],
        [{ pixels: [PIXEL] }, ASK, { kind: 'ask-consent' }],
      ];
      for (const [fields, access, expected] of cases) {
        const { ports, results } = await run(
          aRedirectLink({ ...fields, expirationClicks: 5, ...ROTATING }),
          PERSON,
          GET,
          access,
        );
        assert.deepEqual(results, [expected], JSON.stringify(fields));
        assert.equal(ports.sink.recorded.length, 0);
        assert.equal(ports.quota.claims, 0);
        assert.equal(ports.rotation.positions.size, 0);
      }
    });

    test('unlocked, consent given: on through the pixels; consent refused or a bot: on without them', async () => {
      const link = aRedirectLink({ passwordHash: 'hash', pixels: [PIXEL] });
      assert.deepEqual((await run(link, PERSON, GET, { ...ASK, unlocked: true, consent: 'yes' })).results[0], {
        kind: 'go',
        destination: 'https://example.com/',
        pixels: [PIXEL],
      });
      assert.deepEqual((await run(link, PERSON, GET, { ...ASK, unlocked: true, consent: 'no' })).results[0], {
        kind: 'go',
        destination: 'https://example.com/',
        pixels: [],
      });
      assert.deepEqual((await run(link, BOT, GET, { ...ASK, unlocked: true })).results[0], {
        kind: 'go',
        destination: 'https://example.com/',
        pixels: [],
      });
    });

    test('a click cap: people claim it until it is used up, then they and everyone else are told it expired', async () => {
      const { ports, results, again } = await run(aRedirectLink({ expirationClicks: 2, clicks: 0 }));
      await again(BOT); // a bot uses none of it
      await again(PERSON, HEAD); // nor does HEAD
      await again(); // the second person
      await again(); // over
      await again(BOT);
      await again(PERSON, HEAD);
      assert.deepEqual(
        results.map((r) => r.kind),
        ['go', 'go', 'go', 'go', 'expired', 'expired', 'expired'],
      );
      assert.equal(ports.quota.claims, 3, 'only people claim');
      assert.equal(ports.sink.recorded.filter((r) => !r.click.isBot).length, 2);
    });

    test('rotation: people turn it in order, the position recorded with the click; bots and HEAD get the next without turning it', async () => {
      const { ports, results, again } = await run(aRedirectLink(ROTATING));
      await again();
      await again(BOT);
      await again(PERSON, HEAD);
      await again();
      const destinations = results.map((r) => (r.kind === 'go' ? r.destination : r.kind));
      // lastRotation 0 as last read: people get 1, 2, then 0; bots and HEAD see entry (0 + 1).
      assert.deepEqual(destinations, [
        'https://b.example/',
        'https://c.example/',
        'https://b.example/',
        'https://b.example/',
        'https://a.example/',
      ]);
      assert.deepEqual(
        ports.sink.recorded.map((r) => r.rotation),
        [1, 2, undefined, 0],
      );
    });
  });
}
