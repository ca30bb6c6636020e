// App deep links at decision time (docs/design/rules.md): which app link a visitor on iOS or Android
// gets, from the deciding rule or the link, and when a custom scheme needs the fallback page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveVisit, type VisitContext, type VisitOutcome } from '../redirect/resolve-visit.ts';
import type { Visitor } from '../redirect/visitor.ts';
import { FieldErrorBag } from '../shared/errors.ts';
import { UrlPolicy } from '../links/url-policy.ts';
import { TargetType } from '../targeting/target.ts';
import { checkRules } from './check-rules.ts';
import { compileRules } from './compile-rules.ts';
import { compileTargeting } from './compile-targeting.ts';
import type { Rule } from './rule.ts';
import { aRedirectLink } from '../../../test/support/redirect-links.ts';

const visitor = (platform: Visitor['platform']): Visitor => ({
  country: 'US',
  platform,
  languages: ['en'],
  browser: null,
  device: 'mobile',
  isBot: false,
  refusesTracking: false,
  referrerHost: null,
});
const ctx = (query = ''): VisitContext => ({
  now: 0,
  unlocked: false,
  consent: null,
  consentMode: 'never',
  rules: { query, address: '192.0.2.1', cookie: undefined, random: () => 0 },
});
const destination = (o: VisitOutcome) => {
  assert.equal(o.kind, 'proceed');
  const d = o.destination;
  assert.equal(d.kind, 'fixed');
  return d as { url: string; fallback?: string };
};

test("the link's app links: iOS and Android each their own, other systems the url", () => {
  const link = aRedirectLink({
    url: 'https://web.example/',
    iosUrl: 'https://app.example/ios',
    androidUrl: 'myapp://home',
  });
  assert.deepEqual(destination(resolveVisit(link, visitor('iOS'), ctx())), {
    kind: 'fixed',
    url: 'https://app.example/ios',
  });
  assert.deepEqual(destination(resolveVisit(link, visitor('Android'), ctx())), {
    kind: 'fixed',
    url: 'myapp://home',
    fallback: 'https://web.example/',
  });
  assert.deepEqual(destination(resolveVisit(link, visitor('Windows'), ctx())), {
    kind: 'fixed',
    url: 'https://web.example/',
  });
  assert.deepEqual(destination(resolveVisit(link, visitor(null), ctx())), {
    kind: 'fixed',
    url: 'https://web.example/',
  });
});

test("a phpShort target that chose another URL keeps it: the link's app links belong to its url", () => {
  const link = aRedirectLink({
    url: 'https://web.example/',
    iosUrl: 'https://app.example/ios',
    rules: compileTargeting(TargetType.Country, {
      country: [{ key: 'US', value: 'https://us.example/' }],
      platform: null,
      language: null,
      rotation: null,
    }),
  });
  assert.equal(destination(resolveVisit(link, visitor('iOS'), ctx())).url, 'https://us.example/');
});

test("the deciding rule's app links, and none from the link for a rule without them; a split's variant is still drawn", () => {
  const rules: Rule[] = [
    { name: null, when: { query: { c: 'a' } }, url: 'https://a.example/', android_url: 'myapp://a' },
    { name: null, when: { query: { c: 'b' } }, url: 'https://b.example/' },
    {
      name: null,
      when: { query: { c: 's' } },
      split: [
        { url: 'https://x.example/', weight: 50 },
        { url: 'https://y.example/', weight: 50 },
      ],
      ios_url: 'https://app.example/s',
    },
  ];
  const link = aRedirectLink({
    url: 'https://web.example/',
    iosUrl: 'https://app.example/link',
    rules: compileRules(rules),
  });
  const a = resolveVisit(link, visitor('Android'), ctx('c=a'));
  assert.deepEqual(destination(a), {
    kind: 'fixed',
    url: 'myapp://a',
    fallback: 'https://a.example/',
    decision: { rule: 0, variant: null, url: 'https://a.example/', cookie: '1' },
  });
  assert.equal(
    destination(resolveVisit(link, visitor('iOS'), ctx('c=a'))).url,
    'https://a.example/',
    'the rule has no iOS link',
  );
  assert.equal(
    destination(resolveVisit(link, visitor('iOS'), ctx('c=b'))).url,
    'https://b.example/',
    "not the link's app link",
  );
  const s = destination(resolveVisit(link, visitor('iOS'), ctx('c=s'))) as {
    url: string;
    decision?: { variant: number | null };
  };
  assert.equal(s.url, 'https://app.example/s');
  assert.equal(s.decision?.variant, 0);
  assert.equal(
    destination(resolveVisit(link, visitor('iOS'), ctx())).url,
    'https://app.example/link',
    'no rule decided: the link’s own',
  );
});

test('app links are https or a scheme on the allow-list; the path names the field', () => {
  const urls = new UrlPolicy(['http', 'https'], ['myapp']);
  const bag = new FieldErrorBag();
  assert.equal(urls.checkApp(bag, 'ios_url', 'https://app.example/x'), 'https://app.example/x');
  assert.equal(urls.checkApp(bag, 'ios_url', 'myapp://open?id=1'), 'myapp://open?id=1');
  assert.equal(urls.checkApp(bag, 'ios_url', 'MyApp:open'), 'MyApp:open');
  assert.equal(urls.checkApp(bag, 'ios_url', ''), null);
  assert.equal(urls.checkApp(bag, 'ios_url', null), null);
  assert.equal(urls.checkApp(bag, 'ios_url', undefined), undefined);
  assert.equal(bag.has('ios_url'), false);
  for (const [i, bad] of [
    'http://app.example/',
    'javascript:alert(1)',
    'data:text/html,x',
    'other://x',
    'myapp:',
    'https:app',
    'myapp://a b',
    42,
  ].entries()) {
    const b = new FieldErrorBag();
    assert.equal(urls.checkApp(b, `f${i}`, bad), undefined, String(bad));
    assert.equal(b.has(`f${i}`), true, String(bad));
  }
  const none = new FieldErrorBag();
  assert.equal(
    new UrlPolicy().checkApp(none, 'android_url', 'myapp://x'),
    undefined,
    'no custom scheme unless the operator lists it',
  );
  const ruleBag = new FieldErrorBag();
  assert.equal(
    checkRules(
      ruleBag,
      [{ when: {}, url: 'https://a.example/', ios_url: 'https://app.example/', android_url: 'nope://x' }],
      urls,
    ),
    undefined,
  );
  assert.equal(ruleBag.has('rules.0.android_url'), true);
  assert.deepEqual(
    checkRules(
      new FieldErrorBag(),
      [{ when: {}, url: 'https://a.example/', ios_url: 'myapp://i', android_url: null }],
      urls,
    ),
    [{ name: null, when: {}, url: 'https://a.example/', ios_url: 'myapp://i' }],
  );
});
