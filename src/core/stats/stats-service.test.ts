import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import type { Link } from '../links/link.ts';
import { StatsService, arrange, filled, pageOf } from './stats-service.ts';
import type { FilteredClickStore } from './filtered-clicks.ts';
import type { StatsStore, ValueCount } from './stats-store.ts';

const items: ValueCount[] = [
  { value: 'b', count: 2 },
  { value: null, count: 2 },
  { value: 'A', count: 5 },
  { value: 'c', count: 1 },
];

test('arrange: max/min by count with ties by value (unknown first), or by value; search ignores case and unknowns', () => {
  assert.deepEqual(
    arrange(items, undefined, 'max').map((i) => i.value),
    ['A', null, 'b', 'c'],
  );
  assert.deepEqual(
    arrange(items, undefined, 'min').map((i) => i.value),
    ['c', null, 'b', 'A'],
  );
  assert.deepEqual(
    arrange(items, undefined, 'value').map((i) => i.value),
    [null, 'A', 'b', 'c'],
  );
  assert.deepEqual(
    arrange(items, 'a', 'max').map((i) => i.value),
    ['A'],
  );
  assert.deepEqual(arrange(items, 'zz', 'max'), []);
});

test('filled lists every value, zeros included; pageOf pages or not', () => {
  assert.deepEqual(filled(['x', 'y'], [{ value: 'y', count: 3 }]), [
    { value: 'x', count: 0 },
    { value: 'y', count: 3 },
  ]);
  const many = Array.from({ length: 25 }, (_, i) => ({ value: String(i), count: i }));
  assert.deepEqual(pageOf(many, { page: 3, perPage: 10 }), { items: many.slice(20), total: 25 });
  assert.deepEqual(pageOf(many, null), { items: many, total: 25 });
});

function service(
  owned: boolean,
  breakdown: ValueCount[] = [{ value: 'US', count: 4 }],
  newestFrom: number | null = null,
) {
  const calls: string[] = [];
  /** How many times the link's owner was checked and a range summed. */
  const reads = { findById: 0, summary: 0 };
  const stats: StatsStore = {
    perDay: async () => [{ value: '2026-03-02', count: 4 }],
    counts: async () => [{ value: '13', count: 4 }],
    breakdown: async (_id, dimension, _range, q) => {
      calls.push(`${dimension} ${q.order} ${q.search ?? ''} ${q.page ? q.page.page : 'all'}`);
      return { items: breakdown, total: breakdown.length };
    },
    summary: async () => (reads.summary++, { total: 4, unique: 3, bots: 1 }),
    accountPerDay: async (_id, range) => {
      calls.push(`account ${range.from} ${range.to}`);
      return [
        { value: '2026-02-09', count: 2 },
        { value: '2026-03-10', count: 5 },
      ];
    },
    linksPerDay: async (ids, range) => {
      calls.push(`links ${ids.join(',')} ${range.from} ${range.to}`);
      return [
        { linkId: 1, day: '2026-02-09', count: 2 },
        { linkId: 1, day: '2026-03-10', count: 5 },
        { linkId: 2, day: '2026-03-01', count: 1 },
      ];
    },
  };
  const filtered: FilteredClickStore = {
    totals: async (_id, span, filters) => {
      calls.push(`totals ${span.from} ${span.to} ${filters.map((f) => `${f.name}=${f.value}`).join('&')}`);
      return { total: 3, bots: 1 };
    },
    // 2026-03-09 23:45 UTC and 2026-03-10 00:00 UTC: one day apart in UTC, the same day in Berlin.
    quarters: async () => [
      { quarter: Date.parse('2026-03-09T23:45:00Z') / 900_000, count: 1 },
      { quarter: Date.parse('2026-03-10T00:00:00Z') / 900_000, count: 2 },
    ],
    newestFrom: async (_id, span) => {
      calls.push(`newest ${span.from}`);
      return newestFrom;
    },
    counts: async (_id, breakdown) => {
      calls.push(`counts ${breakdown}`);
      return [
        { value: 'Firefox', count: 1 },
        { value: 'Chrome', count: 2 },
      ];
    },
  };
  const svc = new StatsService({
    links: {
      findById: async () => (reads.findById++, owned ? ({ id: 1 } as Link) : null),
      findAnyById: async () => null,
    },
    stats,
    filtered,
    clock: { now: () => Date.parse('2026-03-10T12:00:00Z') },
    retentionDays: 90,
    minCount: 5,
  });
  return { svc, calls, reads };
}

const account = { id: 1, timezone: 'UTC' };

test('clicks: every day of the range in order; clicks_hours: all 24 hours', async () => {
  const { svc } = service(true);
  const days = await svc.query(
    account,
    1,
    { name: 'clicks', from: '2026-03-01', to: '2026-03-03', page: { page: 1, perPage: 10 } },
    'owner',
  );
  assert.deepEqual(days.items, [
    { value: '2026-03-01', count: 0 },
    { value: '2026-03-02', count: 4 },
    { value: '2026-03-03', count: 0 },
  ]);
  assert.deepEqual(days.summary, { total: 4, unique: 3, bots: 1 });
  const hours = await svc.query(account, 1, { name: 'clicks_hours', page: null }, 'owner');
  assert.equal(hours.total, 24);
  assert.deepEqual(hours.items[13], { value: '13', count: 4 });
  assert.deepEqual(hours.range, { from: '2026-02-09', to: '2026-03-10' });
});

test('other names go to the store sorted by max unless told, with the search and page', async () => {
  const { svc, calls } = service(true);
  await svc.query(account, 1, { name: 'cities', page: { page: 2, perPage: 10 } }, 'owner');
  await svc.query(account, 1, { name: 'referrer', sort: 'min', search: 'co', page: null }, 'owner');
  assert.deepEqual(calls, ['city max  2', 'referrer min co all']);
});

const browsers: ValueCount[] = [
  { value: 'Chrome', count: 9 },
  { value: 'Firefox', count: 5 },
  { value: null, count: 6 },
  { value: 'Opera', count: 4 },
  { value: 'Lynx', count: 1 },
];

test('a public viewer: rare values folded into one other entry, last, before the page; the owner sees them all', async () => {
  const { svc, calls } = service(true, browsers);
  const owner = await svc.query(account, 1, { name: 'browser', page: { page: 1, perPage: 10 } }, 'owner');
  assert.equal(owner.foldedBelow, null);
  assert.deepEqual(owner.items, browsers);
  for (const access of ['public', 'unlocked'] as const) {
    const seen = await svc.query(account, 1, { name: 'browser', page: { page: 1, perPage: 10 } }, access);
    assert.equal(seen.foldedBelow, 5);
    assert.deepEqual(seen.items, [
      { value: 'Chrome', count: 9 },
      { value: null, count: 6 },
      { value: 'Firefox', count: 5 },
      { value: null, count: 5, other: true },
    ]);
    assert.equal(seen.total, 4);
  }
  // The store is asked for the whole list (no search, no page): the folding comes first.
  assert.deepEqual(calls, ['browser max  1', 'browser max  all', 'browser max  all']);
  const min = await svc.query(account, 1, { name: 'browser', sort: 'min', page: { page: 1, perPage: 2 } }, 'public');
  assert.deepEqual(
    min.items.map((e) => [e.value, e.count]),
    [
      ['Firefox', 5],
      [null, 6],
    ],
  );
  assert.equal(min.total, 4);
  const second = await svc.query(account, 1, { name: 'browser', sort: 'min', page: { page: 2, perPage: 2 } }, 'public');
  assert.deepEqual(
    second.items.at(-1),
    { value: null, count: 5, other: true },
    'the other entry last, whatever the order',
  );
});

test('a public viewer: a search finds shown values only, never a folded one nor the other entry', async () => {
  const { svc } = service(true, browsers);
  for (const search of ['lynx', 'oper', 'other']) {
    const found = await svc.query(account, 1, { name: 'browser', search, page: { page: 1, perPage: 10 } }, 'public');
    assert.deepEqual(found.items, [], search);
    assert.equal(found.total, 0, search);
  }
  const chrome = await svc.query(account, 1, { name: 'browser', search: 'chr', page: null }, 'public');
  assert.deepEqual(chrome.items, [{ value: 'Chrome', count: 9 }]);
  const owner = await svc.query(account, 1, { name: 'browser', search: 'lynx', page: null }, 'owner');
  assert.equal(owner.foldedBelow, null);
});

test('a public viewer: days and hours stay exact, as do the totals', async () => {
  const { svc } = service(true);
  const hours = await svc.query(account, 1, { name: 'clicks_hours', page: null }, 'public');
  assert.equal(hours.foldedBelow, null);
  assert.deepEqual(hours.items[13], { value: '13', count: 4 });
  const days = await svc.query(
    account,
    1,
    { name: 'clicks', from: '2026-03-02', to: '2026-03-02', page: null },
    'public',
  );
  assert.deepEqual(days.items, [{ value: '2026-03-02', count: 4 }]);
  assert.deepEqual(days.summary, { total: 4, unique: 3, bots: 1 });
});

test('rangeFor: the owner chooses any days; anyone else a preset, or the last 30 days', () => {
  const { svc } = service(true);
  const custom = { from: '2026-03-01', to: '2026-03-01' };
  assert.deepEqual(svc.rangeFor(custom, 'UTC', 0, 'owner'), custom);
  for (const access of ['public', 'unlocked'] as const) {
    assert.deepEqual(svc.rangeFor(custom, 'UTC', 0, access), { from: '2026-02-09', to: '2026-03-10' });
    assert.deepEqual(svc.rangeFor({ preset: 'last7', ...custom }, 'UTC', 0, access), {
      from: '2026-03-04',
      to: '2026-03-10',
    });
  }
});

test("someone else's link is not found; bad input is refused before anything is read", async () => {
  await assert.rejects(service(false).svc.query(account, 1, { name: 'clicks', page: null }, 'owner'), NotFoundError);
  await assert.rejects(
    service(true).svc.query(account, 1, { name: 'nope' as 'clicks', page: null }, 'owner'),
    ValidationError,
  );
  await assert.rejects(
    service(false).svc.query(account, 1, { name: 'clicks', from: '2026-13-01', page: null }, 'owner'),
    ValidationError,
  );
});

test('accountClicks: the last 30 days up to today in the account zone, zeros filled, totals summed', async () => {
  const { svc, calls } = service(true);
  const result = await svc.accountClicks({ id: 1, timezone: 'Pacific/Auckland' }); // 2026-03-11 01:00 NZDT
  assert.deepEqual(result.range, { from: '2026-02-10', to: '2026-03-11' });
  assert.deepEqual(calls, ['account 2026-02-10 2026-03-11']);
  assert.equal(result.days.length, 30);
  assert.equal(result.days[0]!.value, '2026-02-10');
  assert.equal(result.total, 5); // 2026-02-09 is before the range: filled() keeps only its days
  assert.equal(result.today, 0);
  const utc = await svc.accountClicks({ id: 1, timezone: 'UTC' });
  assert.equal(utc.today, 5);
  assert.equal(utc.total, 7);
});

test('linksClicks: every asked link, the last 30 days from one store call, zeros filled, totals summed', async () => {
  const { svc, calls } = service(true);
  const result = await svc.linksClicks({ timezone: 'UTC' }, [1, 2, 3]);
  assert.deepEqual(calls, ['links 1,2,3 2026-02-09 2026-03-10']);
  assert.equal(result.get(1)!.perDay.length, 30);
  assert.equal(result.get(1)!.perDay[0], 2);
  assert.equal(result.get(1)!.perDay[29], 5);
  assert.equal(result.get(1)!.total, 7);
  assert.equal(result.get(2)!.total, 1);
  assert.deepEqual(
    result.get(3)!.perDay,
    Array.from({ length: 30 }, () => 0),
  );
});

const byCountry = [{ name: 'country', value: 'DE' }] as const;

test('headline: the range against the period of the same length before, with its change', async () => {
  const { svc } = service(true);
  const h = await svc.headline(account, 1, { range: { from: '2026-03-01', to: '2026-03-10' } }, 'owner');
  assert.deepEqual(h.previous, { range: { from: '2026-02-19', to: '2026-02-28' }, total: 4 });
  assert.deepEqual(h.summary, { total: 4, unique: 3, bots: 1 });
  assert.equal(h.change, 0);
  await assert.rejects(
    service(false).svc.headline(account, 1, { range: { from: '2026-03-01', to: '2026-03-10' } }, 'owner'),
    NotFoundError,
  );
});

test('filters: the owner reads click rows, by local day, unique not known; anyone else gets them ignored', async () => {
  const { svc, calls } = service(true);
  const range = { from: '2026-03-09', to: '2026-03-10' };
  const utc = await svc.query(account, 1, { name: 'clicks', ...range, filters: byCountry, page: null }, 'owner');
  assert.deepEqual(utc.items, [
    { value: '2026-03-09', count: 1 },
    { value: '2026-03-10', count: 2 },
  ]);
  assert.deepEqual(utc.summary, { total: 3, unique: null, bots: 1 });
  assert.deepEqual(utc.filters, byCountry);
  assert.equal(utc.countedSince, null);
  const berlin = await svc.query(
    { id: 1, timezone: 'Europe/Berlin' },
    1,
    { name: 'clicks', ...range, filters: byCountry, page: null },
    'owner',
  );
  assert.deepEqual(berlin.items, [
    { value: '2026-03-09', count: 0 },
    { value: '2026-03-10', count: 3 },
  ]);
  const browsers = await svc.query(
    account,
    1,
    { name: 'browser', ...range, filters: byCountry, page: { page: 1, perPage: 5 } },
    'owner',
  );
  assert.deepEqual(
    browsers.items.map((e) => e.value),
    ['Chrome', 'Firefox'],
  );
  assert.ok(
    calls.includes(`totals ${Date.parse('2026-03-09T00:00:00Z')} ${Date.parse('2026-03-11T00:00:00Z')} country=DE`),
  );
  calls.length = 0;
  const open = await svc.query(account, 1, { name: 'browser', ...range, filters: byCountry, page: null }, 'public');
  assert.deepEqual(open.filters, []);
  assert.ok(!calls.some((c) => c.startsWith('totals') || c.startsWith('counts')));
  const h = await svc.headline(account, 1, { range, filters: byCountry }, 'unlocked');
  assert.equal(h.summary.unique, 3);
});

test('filters: never read further back than the retention keeps rows, and say from when', async () => {
  const { svc } = service(true);
  const r = await svc.query(
    account,
    1,
    { name: 'country', from: '2025-01-01', to: '2026-03-10', filters: byCountry, page: null },
    'owner',
  );
  assert.equal(r.countedSince, Date.parse('2026-03-10T12:00:00Z') - 90 * 86_400_000);
  const h = await svc.headline(
    account,
    1,
    { range: { from: '2026-03-01', to: '2026-03-10' }, filters: byCountry },
    'owner',
  );
  assert.equal(h.change, 0);
  assert.equal(h.summary.unique, null);
});

test('filters: a span with more click rows than FILTERED_ROWS_MAX is read from its newest, and the page is told so', async () => {
  const cut = Date.parse('2026-03-09T08:00:00Z');
  const { svc, calls } = service(true, undefined, cut);
  const range = { from: '2026-03-01', to: '2026-03-10' };
  const r = await svc.query(account, 1, { name: 'country', ...range, filters: byCountry, page: null }, 'owner');
  assert.equal(r.countedSince, cut);
  assert.equal(r.countedNewestOnly, true);
  assert.ok(
    calls.includes(`totals ${cut} ${Date.parse('2026-03-11T00:00:00Z')} country=DE`),
    'the totals read from the cut on',
  );
  const h = await svc.headline(account, 1, { range, filters: byCountry }, 'owner');
  assert.equal(h.countedSince, cut);
  assert.equal(h.countedNewestOnly, true);
  // A cut before the span's own start changes nothing.
  const early = service(true, undefined, Date.parse('2026-02-01T00:00:00Z'));
  const whole = await early.svc.query(
    account,
    1,
    { name: 'country', ...range, filters: byCountry, page: null },
    'owner',
  );
  assert.equal(whole.countedSince, null);
  assert.equal(whole.countedNewestOnly, false);
});

test('overview: the same headline and lists as headline and a query each, from one ownership check and two summaries', async () => {
  const { svc, reads } = service(true, browsers);
  const range = { from: '2026-03-01', to: '2026-03-10' };
  const lists = [
    { name: 'clicks' as const, page: null },
    { name: 'browser' as const, page: { page: 1, perPage: 2 } },
  ];
  for (const access of ['owner', 'public'] as const) {
    reads.findById = reads.summary = 0;
    const overview = await svc.overview(account, 1, { range, lists }, access);
    assert.deepEqual(reads, { findById: 1, summary: 2 });
    assert.deepEqual(overview.headline, await svc.headline(account, 1, { range }, access));
    assert.deepEqual(
      overview.lists,
      await Promise.all(lists.map((list) => svc.query(account, 1, { ...list, ...range }, access))),
    );
  }
  await assert.rejects(service(false).svc.overview(account, 1, { range, lists }, 'owner'), NotFoundError);
  await assert.rejects(
    svc.overview(account, 1, { range, lists: [{ name: 'nope' as 'clicks', page: null }] }, 'owner'),
    ValidationError,
  );
});

test('overview under filters: what headline and a query each answer from the click rows', async () => {
  const { svc } = service(true);
  const range = { from: '2026-03-09', to: '2026-03-10' };
  const lists = [{ name: 'browser' as const, page: null }];
  const overview = await svc.overview(account, 1, { range, filters: byCountry, lists }, 'owner');
  assert.deepEqual(overview.headline, await svc.headline(account, 1, { range, filters: byCountry }, 'owner'));
  assert.deepEqual(overview.lists, [
    await svc.query(account, 1, { ...lists[0]!, ...range, filters: byCountry }, 'owner'),
  ]);
});
