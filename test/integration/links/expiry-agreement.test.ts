import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { isExpired } from '../../../src/core/expiration/expiry.ts';
import { LinkStatus } from '../../../src/core/links/link.ts';
import { SqlExpiryClaims } from '../../../src/adapters/storage/stores/expiry-claims.ts';
import { SqlLinkStore } from '../../../src/adapters/storage/stores/link-store.ts';
import { onEachEngine } from '../../support/harness.ts';

const NOW = Date.parse('2026-06-01T12:00:00Z');

/** Every combination the predicate distinguishes: no end, past, exactly now, future × no cap, 0, under, at, over. */
const CASES = [null, NOW - 1, NOW, NOW + 1].flatMap((endsAt) =>
  [
    [null, 5],
    [0, 5],
    [10, 9],
    [10, 10],
    [10, 11],
  ].map(([expirationClicks, clicks]) => ({
    endsAt,
    expirationClicks: expirationClicks as number | null,
    clicks: clicks as number,
  })),
);

// The list's status filter (SQL) and the visit (core) decide expiry from one definition: they
// must agree on every case, or a link listed "active" would answer visitors as expired.
onEachEngine('expiry: the status filter in SQL agrees with core/expiration/expiry.ts', (h) => {
  test('every combination of end date and click cap', async () => {
    const account = await h().account();
    const db = h().server.container.storage.db;
    const ids = new Map<number, boolean>();
    for (const [i, c] of CASES.entries()) {
      const made = await h().request('POST', '/api/v1/links', {
        key: account.key,
        form: { url: `https://example.com/${i}` },
      });
      assert.equal(made.status, 201, made.text);
      const id = made.body.data.id as number;
      await sql`update links set ends_at = ${c.endsAt}, expiration_clicks = ${c.expirationClicks}, clicks = ${c.clicks} where id = ${id}`.execute(
        db,
      );
      ids.set(id, isExpired(c, NOW));
    }
    const engine = h().server.container.storage.engine;
    const store = new SqlLinkStore(db, engine);
    const listed = async (status: LinkStatus, when: string) => {
      const page = await store.list(account.id, { status, by: 'title', sort: 'asc' }, { page: 1, perPage: 100 }, NOW);
      // The total comes from the link counters (migrations 0014, 0016), the page from the predicate.
      assert.equal(page.total, page.items.length, `${when}, status ${status}: total`);
      return new Set(page.items.map((l) => l.id));
    };
    const agree = async (when: string) => {
      const expired = await listed(LinkStatus.Expired, when);
      const active = await listed(LinkStatus.Active, when);
      for (const [id, isExpiredInCore] of ids) {
        assert.equal(
          expired.has(id),
          isExpiredInCore,
          `${when}, link ${id}: ${JSON.stringify(CASES[[...ids.keys()].indexOf(id)])}`,
        );
        assert.equal(active.has(id), !isExpiredInCore);
      }
    };
    await agree('before the expiry sweep');
    // The totals count told links from the counters and untold ones in the links: the same
    // answer whichever the sweep has taken (claimed 3 at a time here, so part way too).
    const claims = new SqlExpiryClaims(db, engine);
    assert.ok((await claims.claim(NOW, 3)).length > 0);
    await agree('part way through the sweep');
    while ((await claims.claim(NOW, 1000)).length > 0);
    await agree('after the sweep');
    // An update that opens a told link again clears its flag (link-rows.ts expiryToldAfter).
    for (const [id, isExpiredInCore] of ids) {
      if (!isExpiredInCore) continue;
      await store.update(account.id, id, { endsAt: null, expirationClicks: null }, undefined, NOW);
      ids.set(id, false);
      break;
    }
    await agree('after a told link was opened again');
  });
});
