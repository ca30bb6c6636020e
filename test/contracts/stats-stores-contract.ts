// What the statistics' ports promise (src/core/stats/), as the statistics pages, the API and the
// export rely on them: StatsStore reads the rollups (human clicks per day and value, unique
// visitors, bots apart, searched, sorted and paged), FilteredClickStore the click rows under
// filters, RawClickStore the rows in (at, id) order a chunk at a time; MonthFolder folds finished
// months without changing any answer; ClickRetention removes old rows and visitor marks, never
// the rollups. Clicks go in through the click writer, as visits' do. Run against the SQL stores on
// both engines (the service's unit tests use canned object fakes, which hold no data to compare).
// One database serves every suite: each test has its own links and its own year, and folding and
// retention (which act on every link) only reach years no other test writes.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Click } from '../../src/core/clicks/click.ts';
import type { RawClickStore } from '../../src/core/stats/click-export.ts';
import { QUARTER_MS, type FilteredClickStore } from '../../src/core/stats/filtered-clicks.ts';
import type { ClickRetention, MonthFolder, StatsStore, ValueCount } from '../../src/core/stats/stats-store.ts';
import { aClick } from '../support/clicks.ts';

export interface StatsStoresSubject {
  stats: StatsStore;
  filtered: FilteredClickStore;
  raw: RawClickStore;
  folder: MonthFolder;
  retention: ClickRetention;
  /** A fresh link of a fresh account (time zone UTC). */
  link: () => Promise<{ id: number; accountId: number }>;
  /** Writes the clicks and their rollups, as the click writer does after a batch. */
  write: (clicks: readonly Click[]) => Promise<void>;
  deleteLink: (linkId: number) => Promise<void>;
}

const ms = (iso: string) => Date.parse(iso);

/** A click at an instant (UTC: the day and hour are the instant's), `over` over that. */
const clickAt = (link: { id: number; accountId: number }, iso: string, over: Partial<Click> = {}): Click =>
  aClick({
    linkId: link.id,
    accountId: link.accountId,
    at: ms(iso),
    day: iso.slice(0, 10),
    hour: Number(iso.slice(11, 13)),
    ...over,
  });

const sorted = (rows: readonly ValueCount[]) =>
  [...rows].sort((a, b) => (a.value ?? '').localeCompare(b.value ?? '') || a.count - b.count);

/** Link A's clicks of 1–3 May 2024: two humans (v1 twice on the 1st, v2 on the 3rd) and a bot. */
async function mayClicks(s: StatsStoresSubject) {
  const [a, b] = [await s.link(), await s.link()];
  await s.write([
    clickAt(a, '2024-05-01T10:00:00Z', { visitor: 'v1', country: 'US', browser: 'Chrome', referrerHost: 't.co' }),
    clickAt(a, '2024-05-01T10:05:00Z', { visitor: 'v1', country: 'US', browser: 'Firefox' }),
    clickAt(a, '2024-05-01T11:00:00Z', { isBot: true, country: 'US' }),
    clickAt(a, '2024-05-03T09:00:00Z', {
      visitor: 'v2',
      country: 'GB',
      browser: 'Chrome',
      referrerHost: 'news.example.com',
    }),
    clickAt(b, '2024-05-01T12:00:00Z', { visitor: 'v3', country: 'SE' }),
  ]);
  return {
    a,
    b,
    range: { from: '2024-05-01', to: '2024-05-03' },
    span: { from: ms('2024-05-01T00:00:00Z'), to: ms('2024-05-04T00:00:00Z') },
  };
}

export function describeStatsStoresContract(name: string, make: () => StatsStoresSubject): void {
  describe(`${name}: the statistics stores' contract`, () => {
    test('StatsStore: human clicks per day, per value and in sum; unique visitors; bots apart; the range bounds it', async () => {
      const s = make();
      const { a, b, range } = await mayClicks(s);
      assert.deepEqual(sorted(await s.stats.perDay(a.id, range)), [
        { value: '2024-05-01', count: 2 },
        { value: '2024-05-03', count: 1 },
      ]);
      assert.deepEqual(await s.stats.summary(a.id, range), { total: 3, unique: 2, bots: 1 });
      assert.deepEqual(await s.stats.summary(a.id, { from: '2024-05-02', to: '2024-05-03' }), {
        total: 1,
        unique: 1,
        bots: 0,
      });
      assert.deepEqual(sorted(await s.stats.counts(a.id, 'country', range)), [
        { value: 'GB', count: 1 },
        { value: 'US', count: 2 },
      ]);
      assert.deepEqual(sorted(await s.stats.counts(a.id, 'referrer', range)), [
        { value: null, count: 1 },
        { value: 'news.example.com', count: 1 },
        { value: 't.co', count: 1 },
      ]);
      assert.deepEqual(sorted(await s.stats.counts(a.id, 'hour', range)), [
        { value: '09', count: 1 },
        { value: '10', count: 2 },
      ]);
      assert.deepEqual(
        sorted(await s.stats.counts(b.id, 'country', range)),
        [{ value: 'SE', count: 1 }],
        'each link its own',
      );
      const none = (await s.link()).id;
      assert.deepEqual(
        [
          await s.stats.perDay(none, range),
          await s.stats.counts(none, 'country', range),
          await s.stats.summary(none, range),
        ],
        [[], [], { total: 0, unique: 0, bots: 0 }],
      );
    });

    test('StatsStore.breakdown: sorted by count (ties by value) or by value, searched in any case, paged with the number of entries', async () => {
      const s = make();
      const { a, range } = await mayClicks(s);
      const page = (n: number, perPage = 10) => ({ page: n, perPage });
      assert.deepEqual(await s.stats.breakdown(a.id, 'browser', range, { order: 'max', page: page(1) }), {
        items: [
          { value: 'Chrome', count: 2 },
          { value: 'Firefox', count: 1 },
        ],
        total: 2,
      });
      assert.deepEqual((await s.stats.breakdown(a.id, 'browser', range, { order: 'min', page: page(1) })).items[0], {
        value: 'Firefox',
        count: 1,
      });
      assert.deepEqual(await s.stats.breakdown(a.id, 'browser', range, { order: 'max', page: page(2, 1) }), {
        items: [{ value: 'Firefox', count: 1 }],
        total: 2,
      });
      assert.deepEqual(
        await s.stats.breakdown(a.id, 'browser', range, { order: 'max', page: page(3, 1) }),
        { items: [], total: 2 },
        'past the last page',
      );
      assert.deepEqual(
        await s.stats.breakdown(a.id, 'browser', range, { order: 'max', search: 'FIRE', page: page(1) }),
        {
          items: [{ value: 'Firefox', count: 1 }],
          total: 1,
        },
      );
      assert.deepEqual(await s.stats.breakdown(a.id, 'referrer', range, { order: 'value', page: null }), {
        items: [
          { value: null, count: 1 },
          { value: 'news.example.com', count: 1 },
          { value: 't.co', count: 1 },
        ],
        total: 3,
      });
      const searched = await s.stats.breakdown(a.id, 'referrer', range, { order: 'value', search: '.co', page: null });
      assert.deepEqual(
        searched.items.map((e) => e.value),
        ['news.example.com', 't.co'],
        'unknown values never match',
      );
      assert.deepEqual(
        await s.stats.breakdown(a.id, 'referrer', range, { order: 'value', search: '%', page: null }),
        { items: [], total: 0 },
        'a wildcard is a character',
      );
    });

    test('StatsStore: an account’s clicks per day over its links; a page of links per link and day', async () => {
      const s = make();
      const { a, b, range } = await mayClicks(s);
      assert.deepEqual(sorted(await s.stats.accountPerDay(a.accountId, range)), [
        { value: '2024-05-01', count: 2 },
        { value: '2024-05-03', count: 1 },
      ]);
      const perLink = await s.stats.linksPerDay([a.id, b.id], range);
      assert.deepEqual(
        [...perLink].sort((x, y) => x.linkId - y.linkId || x.day.localeCompare(y.day)),
        [
          { linkId: a.id, day: '2024-05-01', count: 2 },
          { linkId: a.id, day: '2024-05-03', count: 1 },
          { linkId: b.id, day: '2024-05-01', count: 1 },
        ].sort((x, y) => x.linkId - y.linkId || x.day.localeCompare(y.day)),
      );
      assert.deepEqual(await s.stats.linksPerDay([], range), []);
    });

    test('FilteredClickStore: totals, values and quarter hours of the rows in the span matching every filter', async () => {
      const s = make();
      const { a, span } = await mayClicks(s);
      assert.deepEqual(await s.filtered.totals(a.id, span, []), { total: 3, bots: 1 });
      assert.deepEqual(await s.filtered.totals(a.id, span, [{ name: 'country', value: 'US' }]), { total: 2, bots: 1 });
      assert.deepEqual(
        await s.filtered.totals(a.id, span, [
          { name: 'country', value: 'US' },
          { name: 'browser', value: 'Chrome' },
        ]),
        { total: 1, bots: 0 },
      );
      assert.deepEqual(
        await s.filtered.totals(a.id, { from: span.from, to: ms('2024-05-01T10:05:00Z') }, []),
        { total: 1, bots: 0 },
        'the span’s end is out',
      );
      assert.deepEqual(sorted(await s.filtered.counts(a.id, 'browser', span, [{ name: 'country', value: 'US' }])), [
        { value: 'Chrome', count: 1 },
        { value: 'Firefox', count: 1 },
      ]);
      assert.deepEqual(sorted(await s.filtered.counts(a.id, 'referrer', span, [])), [
        { value: null, count: 1 },
        { value: 'news.example.com', count: 1 },
        { value: 't.co', count: 1 },
      ]);
      const quarters = (await s.filtered.quarters(a.id, span, [])).sort((x, y) => x.quarter - y.quarter);
      assert.deepEqual(quarters, [
        { quarter: ms('2024-05-01T10:00:00Z') / QUARTER_MS, count: 2 },
        { quarter: ms('2024-05-03T09:00:00Z') / QUARTER_MS, count: 1 },
      ]);
    });

    test('FilteredClickStore.newestFrom: null when the span holds no more rows than asked, else where the newest start', async () => {
      const s = make();
      const { a, span } = await mayClicks(s);
      assert.equal(await s.filtered.newestFrom(a.id, span, 4), null, 'exactly as many: nothing to cut');
      assert.equal(await s.filtered.newestFrom(a.id, span, 10), null);
      assert.equal(await s.filtered.newestFrom(a.id, span, 2), ms('2024-05-01T11:00:00Z'), 'bots are rows too');
      assert.equal(await s.filtered.newestFrom(a.id, span, 1), ms('2024-05-03T09:00:00Z'));
    });

    test('RawClickStore: the span’s rows, bots included, in (at, id) order, continued after a position', async () => {
      const s = make();
      const { a, span } = await mayClicks(s);
      const all = await s.raw.clicksAfter(a.id, span.from, span.to, null, 10);
      assert.deepEqual(
        all.map((c) => [c.at, c.isBot, c.country, c.browser, c.referrerHost]),
        [
          [ms('2024-05-01T10:00:00Z'), false, 'US', 'Chrome', 't.co'],
          [ms('2024-05-01T10:05:00Z'), false, 'US', 'Firefox', null],
          [ms('2024-05-01T11:00:00Z'), true, 'US', null, null],
          [ms('2024-05-03T09:00:00Z'), false, 'GB', 'Chrome', 'news.example.com'],
        ],
      );
      const first = await s.raw.clicksAfter(a.id, span.from, span.to, null, 2);
      const rest = await s.raw.clicksAfter(a.id, span.from, span.to, { at: first[1]!.at, id: first[1]!.id }, 10);
      assert.deepEqual([...first, ...rest], all);
      assert.deepEqual(await s.raw.clicksAfter(a.id, ms('2024-05-02T00:00:00Z'), span.to, null, 10), all.slice(3));
      // Two rows at one instant: the id decides, and a position between them continues after the first.
      const same = await s.link();
      await s.write([
        clickAt(same, '2024-06-01T10:00:00Z', { country: 'US' }),
        clickAt(same, '2024-06-01T10:00:00Z', { country: 'GB' }),
      ]);
      const pair = await s.raw.clicksAfter(same.id, ms('2024-06-01T00:00:00Z'), ms('2024-06-02T00:00:00Z'), null, 10);
      assert.equal(pair.length, 2);
      assert.ok(pair[0]!.id < pair[1]!.id);
      assert.deepEqual(
        await s.raw.clicksAfter(
          same.id,
          ms('2024-06-01T00:00:00Z'),
          ms('2024-06-02T00:00:00Z'),
          { at: pair[0]!.at, id: pair[0]!.id },
          10,
        ),
        [pair[1]],
      );
    });

    test('MonthFolder: folding finished months changes no statistic; once done it answers 0', async () => {
      const s = make();
      const link = await s.link();
      await s.write([
        clickAt(link, '2018-01-15T10:00:00Z', { visitor: 'v1', country: 'US', browser: 'Chrome' }),
        clickAt(link, '2018-01-20T10:00:00Z', { visitor: 'v1', country: 'US', browser: 'Firefox' }),
        clickAt(link, '2018-02-03T08:00:00Z', { visitor: 'v2', country: 'GB', browser: 'Chrome' }),
        clickAt(link, '2018-02-03T09:00:00Z', { isBot: true }),
        clickAt(link, '2018-03-01T08:00:00Z', { visitor: 'v3', country: 'SE', browser: 'Safari' }),
      ]);
      const ranges = [
        { from: '2018-01-01', to: '2018-03-31' },
        { from: '2018-01-16', to: '2018-02-28' },
        { from: '2018-02-01', to: '2018-02-28' },
      ];
      const answers = async () =>
        Promise.all(
          ranges.map(async (range) => ({
            summary: await s.stats.summary(link.id, range),
            perDay: sorted(await s.stats.perDay(link.id, range)),
            country: sorted(await s.stats.counts(link.id, 'country', range)),
            browser: await s.stats.breakdown(link.id, 'browser', range, {
              order: 'max',
              page: { page: 1, perPage: 10 },
            }),
          })),
        );
      const before = await answers();
      assert.deepEqual(before[0]!.summary, { total: 4, unique: 4, bots: 1 }, 'unique visitors are summed over days');
      let rounds = 0;
      while ((await s.folder.foldBefore('2018-03', { now: Date.now(), links: 1000, ms: 1000 })) > 0)
        assert.ok(++rounds < 100, 'folding ends');
      assert.equal(await s.folder.foldBefore('2018-03', { now: Date.now(), links: 1000, ms: 1000 }), 0);
      assert.deepEqual(await answers(), before);
    });

    test('ClickRetention: rows before the instant and visitor marks before the day go, rollups stay; a deleted link’s rows go', async () => {
      const s = make();
      const [link, gone] = [await s.link(), await s.link()];
      const year = { from: '2017-01-01', to: '2017-12-31' };
      await s.write([
        clickAt(link, '2017-01-10T10:00:00Z', { visitor: 'v1', country: 'US' }),
        clickAt(link, '2017-01-11T10:00:00Z', { visitor: 'v1', country: 'US' }),
        clickAt(link, '2017-06-10T10:00:00Z', { visitor: 'v1', country: 'GB' }),
        clickAt(gone, '2017-06-10T10:00:00Z', { visitor: 'v2' }),
      ]);
      const summary = await s.stats.summary(link.id, year);
      const country = sorted(await s.stats.counts(link.id, 'country', year));
      await s.deleteLink(gone.id);
      const pruned = await s.retention.prune(ms('2017-02-01T00:00:00Z'), '2017-01-11');
      assert.ok(pruned.clicks >= 2, `clicks pruned: ${pruned.clicks}`);
      assert.ok(pruned.visitors >= 1, `visitor marks pruned: ${pruned.visitors}`);
      const rows = await s.raw.clicksAfter(link.id, ms('2017-01-01T00:00:00Z'), ms('2018-01-01T00:00:00Z'), null, 10);
      assert.deepEqual(
        rows.map((r) => r.at),
        [ms('2017-06-10T10:00:00Z')],
      );
      assert.deepEqual(
        await s.raw.clicksAfter(gone.id, ms('2017-01-01T00:00:00Z'), ms('2018-01-01T00:00:00Z'), null, 10),
        [],
      );
      assert.deepEqual(
        [await s.stats.summary(link.id, year), sorted(await s.stats.counts(link.id, 'country', year))],
        [summary, country],
        'the rollups stay',
      );
      // The mark of 11 January stays: v1 on that day again is no new visitor.
      await s.write([clickAt(link, '2017-01-11T12:00:00Z', { visitor: 'v1' })]);
      assert.equal((await s.stats.summary(link.id, { from: '2017-01-11', to: '2017-01-11' })).unique, 1);
      assert.equal(
        (await s.retention.prune(null, '2017-01-01')).visitors,
        0,
        'null: no click rows by age; no marks before the day',
      );
    });
  });
}
