import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { IP, ManualClock, UA, clicksOf, createLink, stats, visit } from './stats-support.ts';

const clock = new ManualClock();

onEachEngine(
  'statistics: CSV export',
  (h) => {
    test('format=csv: text/csv, an attachment name, a header row, every entry, formulas neutralised', async () => {
      const { key } = await h().account();
      const link = await createLink(h(), key);
      clock.set('2026-05-20T10:00:00Z');
      await visit(h(), link, { referer: 'https://-cmd.example/x' });
      await visit(h(), link, { referer: 'https://-cmd.example/y', ip: IP.gb });
      await visit(h(), link, { referer: 'https://news.example.com/' });
      await visit(h(), link);
      const range = { from: '2026-05-01', to: '2026-05-31' };
      const res = await stats(h(), key, link.id, { name: 'referrer', ...range, format: 'csv', per_page: 10, page: 3 });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
      assert.equal(
        res.headers.get('content-disposition'),
        `attachment; filename="link-${link.id}-referrer-2026-05-01-2026-05-31.csv"`,
      );
      assert.equal(
        res.text,
        "value,count\r\n'-cmd.example,2\r\n,1\r\nnews.example.com,1\r\n",
        'every entry, whatever the page',
      );
    });

    test('per-day CSV: one line per day of the range, zeros included, sort and search applied', async () => {
      const { key } = await h().account();
      const link = await createLink(h(), key);
      clock.set('2026-05-02T10:00:00Z');
      await visit(h(), link, { ua: UA.iphone });
      const res = await stats(h(), key, link.id, {
        name: 'clicks',
        from: '2026-05-01',
        to: '2026-05-03',
        format: 'csv',
      });
      assert.equal(res.text, 'value,count\r\n2026-05-01,0\r\n2026-05-02,1\r\n2026-05-03,0\r\n');
      const top = await stats(h(), key, link.id, {
        name: 'browser',
        from: '2026-05-01',
        to: '2026-05-03',
        format: 'csv',
        search: 'safari',
      });
      assert.equal(top.text, 'value,count\r\nMobile Safari,1\r\n');
      const empty = await stats(h(), key, link.id, {
        name: 'country',
        from: '2026-01-01',
        to: '2026-01-01',
        format: 'csv',
      });
      assert.equal(empty.text, 'value,count\r\n');
    });
  },
  { env: { TRUST_PROXY: 'true' }, overrides: { clock } },
);

onEachEngine(
  'statistics: raw click retention',
  (h) => {
    test('pruning removes click rows past CLICK_RETENTION_DAYS and old visitor marks, and keeps the rollups', async () => {
      const { key } = await h().account();
      const link = await createLink(h(), key);
      clock.set('2026-01-10T12:00:00Z');
      await visit(h(), link, { ip: IP.gb, referer: 'https://old.example/' });
      await visit(h(), link, { ip: IP.us, ua: UA.googlebot });
      clock.set('2026-02-25T12:00:00Z');
      await visit(h(), link, { ip: IP.us });
      await h().server.container.visits.sink.flush();
      const db = h().server.container.storage.db;
      const rowsOf = async () =>
        (await db.selectFrom('clicks').select('at').where('link_id', '=', link.id).orderBy('at').execute()).map(
          (r) => r.at,
        );
      const marksOf = async () =>
        (
          await db.selectFrom('click_visitors').select('day').where('link_id', '=', link.id).orderBy('day').execute()
        ).map((r) => r.day);
      assert.equal((await rowsOf()).length, 3);
      assert.deepEqual(await marksOf(), ['2026-01-10', '2026-02-25']);
      const query = { name: 'referrer', from: '2026-01-01', to: '2026-02-28' };
      const before = (await stats(h(), key, link.id, query)).body;

      clock.set('2026-03-01T12:00:00Z'); // 50 days after the first visits, 4 after the last
      const pruned = await h().server.container.statsMaintenance.prune();
      assert.deepEqual(pruned, { clicks: 2, visitors: 2 });
      assert.deepEqual(await rowsOf(), [Date.parse('2026-02-25T12:00:00Z')]);
      assert.deepEqual(await marksOf(), []);

      const after = (await stats(h(), key, link.id, query)).body;
      assert.deepEqual(after.data, before.data);
      assert.deepEqual(after.stats, before.stats);
      assert.deepEqual(after.stats, { ...after.stats, total: 2, unique: 2, bots: 1 });
      assert.equal(await clicksOf(h(), key, link.id), 2);
      assert.deepEqual(
        await h().server.container.statsMaintenance.prune(),
        { clicks: 0, visitors: 0 },
        'nothing more to do',
      );
    });

    test("a deleted link's click rows are gone after the retention job (SQLite sweeps them; PostgreSQL cascades at once)", async () => {
      const { key } = await h().account();
      const gone = await createLink(h(), key);
      const kept = await createLink(h(), key);
      clock.set('2026-02-27T12:00:00Z');
      for (const link of [gone, kept, gone]) await visit(h(), link);
      await h().server.container.visits.sink.flush();
      const db = h().server.container.storage.db;
      const rowsOf = async (id: number) =>
        (await db.selectFrom('clicks').select('id').where('link_id', '=', id).execute()).length;
      assert.equal(await rowsOf(gone.id), 2);
      assert.equal((await h().request('DELETE', `/api/v1/links/${gone.id}`, { key })).status, 200);

      clock.set('2026-03-01T12:00:00Z');
      const pruned = await h().server.container.statsMaintenance.prune();
      assert.equal(pruned.clicks, h().engine === 'sqlite' ? 2 : 0, 'on PostgreSQL the cascade took them with the link');
      assert.equal(await rowsOf(gone.id), 0);
      assert.equal(await rowsOf(kept.id), 1);
      if (h().engine === 'sqlite') {
        assert.deepEqual(await db.selectFrom('deleted_links').selectAll().execute(), [], 'swept links are forgotten');
      }
      assert.equal((await h().server.container.statsMaintenance.prune()).clicks, 0, 'nothing more to sweep');
    });
  },
  { env: { TRUST_PROXY: 'true', CLICK_RETENTION_DAYS: '30' }, overrides: { clock } },
);

onEachEngine(
  'statistics: CLICK_RETENTION_DAYS=0 keeps every click row',
  (h) => {
    test('only visitor marks go', async () => {
      const { key } = await h().account();
      const link = await createLink(h(), key);
      clock.set('2020-01-01T00:00:00Z');
      await visit(h(), link);
      await h().server.container.visits.sink.flush();
      clock.set('2026-01-01T00:00:00Z');
      assert.deepEqual(await h().server.container.statsMaintenance.prune(), { clicks: 0, visitors: 1 });
      assert.equal(await clicksOf(h(), key, link.id), 1);
    });
  },
  { env: { TRUST_PROXY: 'true', CLICK_RETENTION_DAYS: '0' }, overrides: { clock } },
);
