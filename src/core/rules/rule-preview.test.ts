// The preview's replay on an in-memory click store: shares of a split, conditions clicks cannot
// answer, a rotation's equal parts, the minute read only when a rule needs it, the newest cut.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RulePreview, type ReplayClickStore } from './rule-preview.ts';
import type { ClickFacts } from './replay.ts';
import { UrlPolicy } from '../links/url-policy.ts';
import { ValidationError } from '../shared/errors.ts';
import { TargetType } from '../targeting/target.ts';
import type { Link } from '../links/link.ts';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const group = (over: Partial<ClickFacts>): ClickFacts => ({
  country: null,
  platform: null,
  browser: null,
  device: null,
  language: null,
  referrerHost: null,
  minute: null,
  count: 1,
  ...over,
});

function previewOf(link: Partial<Link>, groups: ClickFacts[], cut: number | null = null) {
  const asked: boolean[] = [];
  const clicks: ReplayClickStore = {
    groups: async function* (_id, _span, byMinute) {
      asked.push(byMinute);
      // Two chunks, as a store hands them over.
      yield groups.slice(0, 1);
      yield groups.slice(1);
    },
    newestFrom: async () => cut,
  };
  const stored = {
    id: 1,
    url: 'https://default.example/',
    rules: null,
    targetType: TargetType.None,
    targets: { country: null, platform: null, language: null, rotation: null },
    ...link,
  } as Link;
  const service = new RulePreview({
    links: { findById: async (a) => (a === 10 ? stored : null) },
    clicks,
    urls: new UrlPolicy(['http', 'https']),
    clock: { now: () => NOW },
  });
  return { service, asked };
}

test('a split shares each click by its weights; changed counts what moves', async () => {
  const { service, asked } = previewOf({}, [group({ country: 'US', count: 10 }), group({ country: 'DE', count: 4 })]);
  const split = [
    {
      when: { country: ['US'] },
      split: [
        { url: 'https://default.example/', weight: 70 },
        { url: 'https://y.example/', weight: 30 },
      ],
    },
  ];
  const p = await service.preview('key:1', 10, 1, { rules: split });
  assert.equal(p.clicks, 14);
  assert.deepEqual(p.current, [{ url: 'https://default.example/', rule: null, clicks: 14 }]);
  assert.deepEqual(p.draft, [
    { url: 'https://default.example/', rule: 0, clicks: 7 },
    { url: 'https://default.example/', rule: null, clicks: 4 },
    { url: 'https://y.example/', rule: 0, clicks: 3 },
  ]);
  assert.equal(p.changed, 3);
  assert.deepEqual(asked, [false], 'no minute without a time or date condition');
});

test('unknown conditions never hold (their not does); a rotation reads in equal parts; time asks for the minute', async () => {
  const rotation = {
    targetType: TargetType.Rotation,
    targets: {
      country: null,
      platform: null,
      language: null,
      rotation: [{ value: 'https://a.example/' }, { value: 'https://b.example/' }],
    },
  };
  const at = Date.parse('2026-11-27T10:30:00Z');
  const { service, asked } = previewOf(rotation, [group({ minute: at, count: 4 })]);
  const p = await service.preview('key:1', 10, 1, {
    rules: [
      { when: { ip: ['10.0.0.0/8'] }, url: 'https://office.example/' },
      {
        when: { time: { from: '09:00', to: '11:00', tz: 'UTC' }, not: { query: { a: '*' } } },
        url: 'https://morning.example/',
      },
    ],
    days: 7,
  });
  assert.deepEqual(p.current, [
    { url: 'https://a.example/', rule: null, clicks: 2 },
    { url: 'https://b.example/', rule: null, clicks: 2 },
  ]);
  assert.deepEqual(p.draft, [{ url: 'https://morning.example/', rule: 1, clicks: 4 }]);
  assert.deepEqual(p.unknown, ['query', 'ip']);
  assert.deepEqual([p.days, p.since], [7, null]);
  assert.deepEqual(asked, [true]);
});

test('the newest rows only: since says from when; bad input names its field; another account: not found', async () => {
  const cut = NOW - 86_400_000;
  const { service } = previewOf({}, [], cut);
  assert.equal((await service.preview('key:1', 10, 1, { rules: [] })).since, cut);
  await assert.rejects(
    service.preview('key:1', 10, 1, { rules: [{ when: { country: ['USA'] }, url: 'https://a.example/' }], days: 91 }),
    (e: unknown) => {
      assert.ok(e instanceof ValidationError);
      assert.deepEqual(Object.keys(e.fields).sort(), ['days', 'rules.0.when.country.0']);
      return true;
    },
  );
  await assert.rejects(
    service.preview('key:1', 10, 1, {}),
    (e: unknown) => e instanceof ValidationError && 'rules' in e.fields,
  );
  await assert.rejects(service.preview('key:1', 11, 1, { rules: [] }), /link not found/);
});

test('a split replays the variant each click recorded, not a fresh draw; an edited split shares by weight', async () => {
  const ab = [
    { url: 'https://a.example/', weight: 50 },
    { url: 'https://b.example/', weight: 50 },
  ];
  const rules = [{ name: null, when: {}, split: ab }];
  // 60 real visits: A 47, B 13, as the redirect recorded them.
  const { service } = previewOf({ rules }, [
    group({ rule: 0, variant: 0, count: 47 }),
    group({ rule: 0, variant: 1, count: 13 }),
  ]);
  const same = await service.preview('key:1', 10, 1, { rules });
  const expected = [
    { url: 'https://a.example/', rule: 0, clicks: 47 },
    { url: 'https://b.example/', rule: 0, clicks: 13 },
  ];
  assert.deepEqual(same.current, expected);
  assert.deepEqual(same.draft, expected);
  assert.equal(same.changed, 0);
  const reweighed = [
    {
      when: {},
      split: [
        { ...ab[0]!, weight: 75 },
        { ...ab[1]!, weight: 25 },
      ],
    },
  ];
  const edited = await service.preview('key:1', 10, 1, { rules: reweighed });
  assert.deepEqual(edited.current, expected, 'the current rules still read what happened');
  assert.deepEqual(edited.draft, [
    { url: 'https://a.example/', rule: 0, clicks: 45 },
    { url: 'https://b.example/', rule: 0, clicks: 15 },
  ]);
});
