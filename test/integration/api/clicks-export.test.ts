import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { assertInvalid, assertNotFound, makeLink } from './links-support.ts';

const DAY = Date.parse('2026-01-01T00:00:00Z');

async function addClicks(
  h: Harness,
  accountId: number,
  linkId: number,
  rows: { at: number; country?: string; referrer_host?: string; is_bot?: number }[],
) {
  const db = h.server.container.storage.db;
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('clicks')
      .values(
        rows.slice(i, i + 500).map((r) => ({
          link_id: linkId,
          account_id: accountId,
          country: null,
          referrer_host: null,
          is_bot: 0,
          ...r,
        })),
      )
      .execute();
  }
}

onEachEngine('statistics API: clicks export', (h) => {
  const exportOf = (key: string, id: number, query: string) =>
    h().request('GET', `/api/v1/stats/${id}/export?${query}`, { key });

  test("the link's click rows of the owner's days, in time order, as CSV", async () => {
    const { id: accountId, key } = await h().account();
    const link = await makeLink(h(), key);
    const other = await makeLink(h(), key);
    await addClicks(h(), accountId, link.id, [
      { at: DAY + 1000, country: 'FR', referrer_host: '=evil.example' },
      { at: DAY - 1, country: 'US' },
      { at: DAY + 86_400_000 - 1, is_bot: 1 },
      { at: DAY + 86_400_000, country: 'DE' },
    ]);
    await addClicks(h(), accountId, other.id, [{ at: DAY + 5, country: 'IT' }]);
    const res = await exportOf(key, link.id, 'from=2026-01-01&to=2026-01-01');
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
    assert.equal(
      res.headers.get('content-disposition'),
      `attachment; filename="link-${link.id}-clicks-2026-01-01-2026-01-01.csv"`,
    );
    const rows = parse<Record<string, string>>(res.text, { columns: true });
    assert.deepEqual(
      rows.map((r) => [r.at, r.country, r.referrer_host, r.bot]),
      [
        ['2026-01-01T00:00:01.000Z', 'FR', "'=evil.example", '0'],
        ['2026-01-01T23:59:59.999Z', '', '', '1'],
      ],
    );
    assert.equal(res.text.split('\r\n')[0], 'id,at,country,city,browser,platform,device,language,referrer_host,bot');
    const none = await exportOf(key, link.id, 'from=2025-01-01&to=2025-01-31');
    assert.equal(none.text, 'id,at,country,city,browser,platform,device,language,referrer_host,bot\r\n');
  });

  test('thousands of rows, many at one instant, each exactly once', async () => {
    const { id: accountId, key } = await h().account();
    const link = await makeLink(h(), key);
    await addClicks(
      h(),
      accountId,
      link.id,
      Array.from({ length: 2300 }, (_, i) => ({ at: DAY + (i < 1500 ? 0 : i) })),
    );
    const res = await exportOf(key, link.id, 'from=2026-01-01&to=2026-01-01');
    assert.equal(res.headers.get('content-length'), null, 'streamed');
    const ids = parse<Record<string, string>>(res.text, { columns: true }).map((r) => Number(r.id));
    assert.equal(ids.length, 2300);
    assert.equal(new Set(ids).size, 2300);
  });

  test('owner-only; bad ranges are a 422 naming the field', async () => {
    const a = await h().account();
    const b = await h().account();
    const link = await makeLink(h(), a.key);
    await addClicks(h(), a.id, link.id, [{ at: DAY }]);
    assertNotFound(await exportOf(b.key, link.id, 'from=2026-01-01&to=2026-01-01'));
    assertNotFound(await exportOf(a.key, 2147483000, ''));
    assertInvalid(await exportOf(a.key, link.id, 'from=2026-13-01'), ['from']);
    assertInvalid(await exportOf(a.key, link.id, 'from=2026-01-02&to=2026-01-01'), ['to']);
    assert.equal((await h().request('GET', `/api/v1/stats/${link.id}/export`)).status, 401);
  });
});
