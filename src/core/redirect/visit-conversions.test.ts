// A link that tracks conversions: the destination carries a signed click id naming the deciding
// rule and variant, and the click records them too (docs/design/rules.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { visit, type VisitAccess, type VisitRequest, type VisitResult } from './visit.ts';
import { compileRules } from '../rules/compile-rules.ts';
import { ClickIds } from '../conversions/click-id.ts';
import type { Visitor } from './visitor.ts';
import { aRedirectLink } from '../../../test/support/redirect-links.ts';
import { fakeVisitPorts } from '../../../test/support/fakes/visit-fakes.ts';

const NOW = Date.parse('2026-11-25T08:30:00Z');
const PERSON: Visitor = {
  country: 'FR',
  platform: 'Windows',
  languages: ['fr'],
  browser: 'Firefox',
  device: 'desktop',
  isBot: false,
  refusesTracking: false,
  referrerHost: null,
};
const GET: VisitRequest = {
  method: 'GET',
  query: 'utm_source=x&lpx_cid=forged',
  address: '192.0.2.7',
  userAgent: 'UA',
};
const ACCESS: VisitAccess = { unlocked: false, consent: null, consentMode: 'ask' };
const ids = new ClickIds('secret', 90);
const SPLIT = compileRules([
  { name: 'US', when: { country: ['US'] }, url: 'https://us.example/' },
  {
    name: 'Test',
    when: {},
    split: [
      { url: 'https://a.example/', weight: 50 },
      { url: 'https://b.example/', weight: 50 },
    ],
  },
]);

function destinationOf(result: VisitResult): URL {
  assert.equal(result.kind, 'go');
  return new URL(result.destination);
}

test("the click id names the link, the rule and the variant drawn; the visitor's own lpx_cid is replaced", async () => {
  const ports = { ...fakeVisitPorts(NOW), clickIds: ids, random: () => 0.75 };
  const link = aRedirectLink({ id: 42, trackConversions: true, rules: SPLIT });
  const url = destinationOf(await visit(ports, link, PERSON, GET, ACCESS));
  assert.equal(url.origin + url.pathname, 'https://b.example/');
  assert.equal(url.searchParams.get('utm_source'), 'x');
  assert.equal(url.searchParams.getAll('lpx_cid').length, 1);
  const read = ids.read(url.searchParams.get('lpx_cid')!, NOW);
  assert.ok(read.ok);
  assert.deepEqual(
    { linkId: read.click.linkId, at: read.click.at, rule: read.click.rule, variant: read.click.variant },
    { linkId: 42, at: NOW, rule: 1, variant: 1 },
  );
  const { click } = ports.sink.recorded[0]!;
  assert.deepEqual([click.rule, click.variant], [1, 1]);
});

test("the destination's own lpx_cid wins; a link that does not track adds none", async () => {
  const ports = { ...fakeVisitPorts(NOW), clickIds: ids };
  const own = destinationOf(
    await visit(
      ports,
      aRedirectLink({ url: 'https://shop.example/?lpx_cid=mine', trackConversions: true }),
      PERSON,
      GET,
      ACCESS,
    ),
  );
  assert.deepEqual(own.searchParams.getAll('lpx_cid'), ['mine']);
  const plain = destinationOf(
    await visit(ports, aRedirectLink({ url: 'https://shop.example/' }), PERSON, { ...GET, query: '' }, ACCESS),
  );
  assert.equal(plain.search, '');
  assert.deepEqual([ports.sink.recorded[1]!.click.rule, ports.sink.recorded[1]!.click.variant], [null, null]);
});

test('HEAD shows the way without a click id (no click was recorded)', async () => {
  const ports = { ...fakeVisitPorts(NOW), clickIds: ids };
  const url = destinationOf(
    await visit(
      ports,
      aRedirectLink({ trackConversions: true }),
      PERSON,
      { ...GET, method: 'HEAD', query: '' },
      ACCESS,
    ),
  );
  assert.equal(url.searchParams.has('lpx_cid'), false);
});
