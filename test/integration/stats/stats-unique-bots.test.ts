import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { IP, ManualClock, UA, clicksOf, createLink, pairs, stats, visit } from './stats-support.ts';

const clock = new ManualClock();

onEachEngine(
  'statistics: unique visitors and bots',
  (h) => {
    test('unique: one per address + User-Agent per day; total counts every click', async () => {
      const { key } = await h().account();
      const link = await createLink(h(), key);
      clock.set('2026-04-01T08:00:00Z');
      for (let i = 0; i < 3; i++) await visit(h(), link, { ip: IP.us, ua: UA.windowsChrome });
      await visit(h(), link, { ip: IP.us, ua: UA.macFirefox }); // same address, another browser
      await visit(h(), link, { ip: IP.gb, ua: UA.windowsChrome }); // same browser, another address
      clock.set('2026-04-01T23:59:00Z');
      await visit(h(), link, { ip: IP.us, ua: UA.windowsChrome }); // again, same day
      const day1 = await stats(h(), key, link.id, { name: 'clicks', from: '2026-04-01', to: '2026-04-01' });
      assert.deepEqual({ total: day1.body.stats.total, unique: day1.body.stats.unique }, { total: 6, unique: 3 });

      clock.set('2026-04-02T00:00:01Z');
      await visit(h(), link, { ip: IP.us, ua: UA.windowsChrome }); // a new day: counted again
      const day2 = await stats(h(), key, link.id, { name: 'clicks', from: '2026-04-02', to: '2026-04-02' });
      assert.deepEqual({ total: day2.body.stats.total, unique: day2.body.stats.unique }, { total: 1, unique: 1 });
      // Over a range, unique is the sum of the days' uniques (the salt changes every day).
      const both = await stats(h(), key, link.id, { name: 'clicks', from: '2026-04-01', to: '2026-04-02' });
      assert.deepEqual({ total: both.body.stats.total, unique: both.body.stats.unique }, { total: 7, unique: 4 });
    });

    test('the same visitor on two links is unique on each', async () => {
      const { key } = await h().account();
      const a = await createLink(h(), key);
      const b = await createLink(h(), key);
      clock.set('2026-04-03T10:00:00Z');
      await visit(h(), a, { ip: IP.se });
      await visit(h(), b, { ip: IP.se });
      for (const link of [a, b]) {
        const res = await stats(h(), key, link.id, { name: 'clicks', from: '2026-04-03', to: '2026-04-03' });
        assert.equal(res.body.stats.unique, 1);
      }
    });

    test('no address or User-Agent is stored: click rows and visitor marks hold neither', async () => {
      await h().server.container.visits.sink.flush();
      const db = h().server.container.storage.db;
      const marks = await db.selectFrom('click_visitors').selectAll().execute();
      assert.ok(marks.length > 0);
      for (const m of marks) {
        assert.match(m.visitor, /^[A-Za-z0-9_-]{22}$/, 'a 128-bit hash');
        for (const secret of [...Object.values(IP), 'Mozilla']) assert.ok(!m.visitor.includes(secret));
      }
      const row = await db.selectFrom('clicks').selectAll().limit(1).executeTakeFirstOrThrow();
      assert.ok(!JSON.stringify(row).includes(IP.us) && !JSON.stringify(row).includes('Mozilla'));
    });

    test('bots are counted apart: not in clicks, total, unique or any dimension', async () => {
      const { key } = await h().account();
      const link = await createLink(h(), key);
      clock.set('2026-04-05T09:00:00Z');
      await visit(h(), link, { ip: IP.gb, ua: UA.iphone });
      for (let i = 0; i < 3; i++)
        await visit(h(), link, { ip: IP.us, ua: UA.googlebot, referer: 'https://www.google.com/' });
      const range = { from: '2026-04-05', to: '2026-04-05' };
      const res = await stats(h(), key, link.id, { name: 'referrer', ...range });
      assert.deepEqual(res.body.stats, { name: 'referrer', ...range, timezone: 'UTC', total: 1, unique: 1, bots: 3 });
      assert.deepEqual(res.body.data, [{ value: null, count: 1 }]);
      assert.deepEqual(await pairs(h(), key, link.id, { name: 'country', ...range }), [['GB', 1]]);
      assert.deepEqual(await pairs(h(), key, link.id, { name: 'clicks', ...range }), [['2026-04-05', 1]]);
      assert.equal(await clicksOf(h(), key, link.id), 1);
    });

    test('a deleted link takes its statistics with it', async () => {
      const { key } = await h().account();
      const link = await createLink(h(), key);
      await visit(h(), link);
      await h().server.container.visits.sink.flush();
      const db = h().server.container.storage.db;
      const before = await db.selectFrom('click_rollups').select('link_id').where('link_id', '=', link.id).execute();
      assert.ok(before.length > 0);
      assert.equal((await h().request('DELETE', `/api/v1/links/${link.id}`, { key })).status, 200);
      const after = await db.selectFrom('click_rollups').select('link_id').where('link_id', '=', link.id).execute();
      assert.equal(after.length, 0);
      assert.equal((await stats(h(), key, link.id, { name: 'clicks' })).status, 404);
    });
  },
  { env: { TRUST_PROXY: 'true' }, overrides: { clock } },
);
