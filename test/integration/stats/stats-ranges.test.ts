import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { IP, ManualClock, createLink, pairs, stats, visit, type Visit } from './stats-support.ts';

const clock = new ManualClock();

onEachEngine(
  'statistics: days and hours in the account time zone',
  (h) => {
    test('a click a second before local midnight and one at midnight fall on two days (America/New_York)', async () => {
      const { key } = await h().account(undefined, 'America/New_York');
      const link = await createLink(h(), key);
      clock.set('2026-03-10T03:59:59Z'); // 2026-03-09 23:59:59 EDT
      await visit(h(), link);
      clock.set('2026-03-10T04:00:00Z'); // 2026-03-10 00:00:00 EDT
      await visit(h(), link);
      assert.deepEqual(await pairs(h(), key, link.id, { name: 'clicks', from: '2026-03-08', to: '2026-03-11' }), [
        ['2026-03-08', 0],
        ['2026-03-09', 1],
        ['2026-03-10', 1],
        ['2026-03-11', 0],
      ]);
      const day9 = await stats(h(), key, link.id, {
        name: 'clicks_hours',
        from: '2026-03-09',
        to: '2026-03-09',
        sort: 'max',
      });
      assert.deepEqual(day9.body.data[0], { value: '23', count: 1 });
      assert.equal(day9.body.stats.total, 1);
      const day10 = await stats(h(), key, link.id, {
        name: 'clicks_hours',
        from: '2026-03-10',
        to: '2026-03-10',
        sort: 'max',
      });
      assert.deepEqual(day10.body.data[0], { value: '00', count: 1 });
      assert.equal(day10.body.stats.timezone, 'America/New_York');
    });

    test('east of UTC too: 00:30 in Tokyo is the previous UTC day', async () => {
      const { key } = await h().account(undefined, 'Asia/Tokyo');
      const link = await createLink(h(), key);
      clock.set('2026-06-30T15:30:00Z'); // 2026-07-01 00:30 JST
      await visit(h(), link);
      assert.deepEqual(await pairs(h(), key, link.id, { name: 'clicks', from: '2026-06-30', to: '2026-07-01' }), [
        ['2026-06-30', 0],
        ['2026-07-01', 1],
      ]);
    });

    test('the repeated hour of a fall-back night counts in hour 01 twice', async () => {
      const { key } = await h().account(undefined, 'America/New_York');
      const link = await createLink(h(), key);
      clock.set('2026-11-01T05:30:00Z'); // 01:30 EDT
      await visit(h(), link);
      clock.set('2026-11-01T06:30:00Z'); // 01:30 EST
      await visit(h(), link);
      const hours = await pairs(h(), key, link.id, {
        name: 'clicks_hours',
        from: '2026-11-01',
        to: '2026-11-01',
        sort: 'max',
      });
      assert.deepEqual(hours[0], ['01', 2]);
    });

    test('without from/to: the last 30 days up to today in the account zone', async () => {
      const { key } = await h().account(undefined, 'Pacific/Auckland');
      const link = await createLink(h(), key);
      clock.set('2026-03-10T20:00:00Z'); // 2026-03-11 09:00 NZDT
      await visit(h(), link);
      const res = await stats(h(), key, link.id, { name: 'clicks', per_page: 100 });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.stats.from, '2026-02-10');
      assert.equal(res.body.stats.to, '2026-03-11');
      assert.equal(res.body.meta.total, 30);
      assert.deepEqual(res.body.data.at(-1), { value: '2026-03-11', count: 1 });
      const onlyFrom = await stats(h(), key, link.id, { name: 'clicks', from: '2026-03-01' });
      assert.equal(onlyFrom.body.stats.to, '2026-03-11');
      const onlyTo = await stats(h(), key, link.id, { name: 'clicks', to: '2026-01-31' });
      assert.equal(onlyTo.body.stats.from, '2026-01-02');
    });

    test('a range over months and quarters answers the same once its finished months and quarters are folded', async () => {
      const { key } = await h().account(undefined, 'America/New_York');
      const link = await createLink(h(), key);
      const visits: Array<[string, Visit]> = [
        ['2026-01-15T12:00:00Z', { ip: IP.us }],
        ['2026-02-01T04:59:59Z', { ip: IP.gb, referer: 'https://news.example/a' }], // still 31 January in New York
        ['2026-02-20T12:00:00Z', { ip: IP.se, referer: 'https://news.example/b' }],
        ['2026-03-31T12:00:00Z', { ip: IP.us }],
        ['2026-04-01T03:59:59Z', { ip: IP.gb, referer: 'https://news.example/c' }], // still 31 March (and the first quarter) in New York
        ['2026-04-01T04:00:00Z', { ip: IP.se }], // 1 April in New York
      ];
      for (const [at, v] of visits) {
        clock.set(at);
        await visit(h(), link, v);
      }
      const queries = ['clicks', 'country', 'referrer', 'clicks_hours'].flatMap((name) => [
        { name, from: '2026-01-01', to: '2026-03-31', per_page: 100 },
        { name, from: '2026-01-20', to: '2026-03-05', per_page: 100 },
        { name, from: '2025-12-31', to: '2026-04-01', per_page: 100 },
        { name, from: '2026-01-01', to: '2026-03-30', per_page: 100 },
      ]);
      const answers = async () => Promise.all(queries.map(async (q) => (await stats(h(), key, link.id, q)).body));
      const unfolded = await answers();
      assert.equal(unfolded[0].stats.total, 5, JSON.stringify(unfolded[0]));
      assert.equal(unfolded[2].stats.total, 6, JSON.stringify(unfolded[2]));
      assert.ok(
        unfolded.every((body) => Array.isArray(body.data)),
        JSON.stringify(unfolded),
      );
      clock.set('2026-04-04T00:00:00Z');
      while ((await h().server.container.statsMaintenance.foldMonths()) > 0);
      assert.deepEqual(await answers(), unfolded);
      const months = await h()
        .server.container.storage.db.selectFrom('click_rollup_months')
        .select(['month', 'count'])
        .where('link_id', '=', link.id)
        .where('dimension', '=', 'total')
        .orderBy('month')
        .execute();
      assert.deepEqual(
        months.map((m) => [m.month, Number(m.count)]),
        [
          ['2026-01', 2],
          ['2026-02', 1],
          ['2026-03', 2],
        ],
      );
      const quarters = await h()
        .server.container.storage.db.selectFrom('click_rollup_quarters')
        .select(['dimension', 'quarter', 'value', 'count'])
        .where('link_id', '=', link.id)
        .where('dimension', 'in', ['total', 'referrer'])
        .orderBy('dimension')
        .orderBy('value')
        .execute();
      assert.deepEqual(
        quarters.map((q) => [q.dimension, q.quarter, q.value, Number(q.count)]),
        [
          ['referrer', '2026-01', '', 2],
          ['referrer', '2026-01', 'news.example', 3],
          ['total', '2026-01', '', 5],
        ],
      );
    });
  },
  { env: { TRUST_PROXY: 'true' }, overrides: { clock } },
);

onEachEngine('statistics: validation and ownership', (h) => {
  let key: string;
  let id: number;

  before(async () => {
    ({ key } = await h().account());
    id = (await createLink(h(), key)).id;
  });

  const invalid: Array<[string, Record<string, string>, string]> = [
    ['no name', {}, 'name'],
    ['unknown name', { name: 'cookies' }, 'name'],
    ['phpShort has no "city"', { name: 'city' }, 'name'],
    ['impossible date', { name: 'clicks', from: '2026-02-30', to: '2026-03-01' }, 'from'],
    ['malformed date', { name: 'clicks', from: '2026-3-1' }, 'from'],
    ['malformed to', { name: 'clicks', to: '01/03/2026' }, 'to'],
    ['from after to', { name: 'country', from: '2026-03-02', to: '2026-03-01' }, 'to'],
    ['longer than ten years', { name: 'clicks', from: '2000-01-01', to: '2026-01-01' }, 'to'],
    ['bad sort', { name: 'country', sort: 'asc' }, 'sort'],
    ['per_page too small', { name: 'country', per_page: '5' }, 'per_page'],
    ['page 0', { name: 'country', page: '0' }, 'page'],
    ['unknown format', { name: 'country', format: 'xlsx' }, 'format'],
  ];
  for (const [what, query, field] of invalid) {
    test(`422: ${what}`, async () => {
      const res = await stats(h(), key, id, query);
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.status, 422);
      assert.ok(Array.isArray(res.body.message[field]), `${field} in ${res.text}`);
    });
  }

  test('every bad field at once', async () => {
    const res = await stats(h(), key, id, { name: 'x', sort: 'y', per_page: 1 });
    assert.equal(res.status, 422);
    assert.deepEqual(Object.keys(res.body.message).sort(), ['name', 'per_page', 'sort']);
  });

  test("another account's link is not found, and so is an unknown one", async () => {
    const other = await h().account();
    for (const format of ['json', 'csv']) {
      const res = await stats(h(), other.key, id, { name: 'clicks', format });
      assert.equal(res.status, 404, res.text);
      assert.deepEqual(res.body, { message: 'Resource not found.', status: 404 });
    }
    assert.equal((await stats(h(), key, 987654321, { name: 'clicks' })).status, 404);
    assert.equal((await h().request('GET', '/api/v1/stats/abc?name=clicks', { key })).status, 404);
    assert.equal((await stats(h(), key, id, { name: 'clicks' })).status, 200);
  });

  test('without a key: 401', async () => {
    const res = await h().request('GET', `/api/v1/stats/${id}?name=clicks`);
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, { message: 'Unauthenticated.', status: 401 });
  });
});
