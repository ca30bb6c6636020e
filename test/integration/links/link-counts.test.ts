// The list's totals for the filters the link counters answer (migration 0014) agree with the
// links themselves after every kind of write: API creates and edits, SQL writes, bulk actions,
// a deleted space, domain and account.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { isExpired } from '../../../src/core/expiration/expiry.ts';
import { LinkStatus, type LinkFilter } from '../../../src/core/links/link.ts';
import { SqlLinkStore } from '../../../src/adapters/storage/stores/link-store.ts';
import type { Database } from '../../../src/adapters/storage/schema.ts';
import { onEachEngine } from '../../support/harness.ts';
import { makeDomain, makeLink, makeSpace } from '../api/links-support.ts';

const STATUSES = [LinkStatus.All, LinkStatus.Active, LinkStatus.Expired, LinkStatus.Disabled] as const;

interface Row {
  id: number;
  space_id: number | null;
  domain_id: number | null;
  disabled: number;
  ends_at: number | null;
  expiration_clicks: number | null;
  clicks: number;
}

function matches(r: Row, f: Pick<LinkFilter, 'status' | 'spaceId' | 'domainId'>, now: number): boolean {
  if (f.spaceId !== undefined && r.space_id !== f.spaceId) return false;
  if (f.domainId !== undefined && r.domain_id !== f.domainId) return false;
  const expired = isExpired({ endsAt: r.ends_at, expirationClicks: r.expiration_clicks, clicks: r.clicks }, now);
  if (f.status === LinkStatus.Disabled) return r.disabled === 1;
  if (f.status === LinkStatus.Expired) return r.disabled === 0 && expired;
  if (f.status === LinkStatus.Active) return r.disabled === 0 && !expired;
  return true;
}

async function assertTotals(db: Kysely<Database>, store: SqlLinkStore, accountId: number, when: string): Promise<void> {
  const now = Date.now();
  const rows = (await db
    .selectFrom('links')
    .select(['id', 'space_id', 'domain_id', 'disabled', 'ends_at', 'expiration_clicks', 'clicks'])
    .where('account_id', '=', accountId)
    .execute()) as Row[];
  const spaces = [undefined, ...new Set(rows.map((r) => r.space_id).filter((s): s is number => s !== null))];
  const domains = [undefined, ...new Set(rows.map((r) => r.domain_id).filter((d): d is number => d !== null))];
  for (const status of STATUSES)
    for (const spaceId of spaces)
      for (const domainId of domains) {
        const filter = { status, spaceId, domainId, by: 'title', sort: 'desc' } as const;
        const page = await store.list(accountId, filter, { page: 1, perPage: 10 }, now);
        const expected = rows.filter((r) => matches(r, filter, now)).length;
        assert.equal(page.total, expected, `${when}: status ${status}, space ${spaceId}, domain ${domainId}`);
      }
}

onEachEngine('link counters: the list totals they give agree with the links', (h) => {
  test('after creates, edits, SQL writes, bulk actions and deletes of spaces, domains and the account', async () => {
    const db = h().server.container.storage.db;
    const store = new SqlLinkStore(db, h().server.container.storage.engine);
    const account = await h().account();
    const other = await h().account();
    const key = account.key;
    const [a, b] = [await makeSpace(h(), key), await makeSpace(h(), key)];
    const domain = await makeDomain(h(), key);
    const ids: number[] = [];
    for (let i = 0; i < 12; i++)
      ids.push((await makeLink(h(), key, i % 3 === 0 ? { space: a.id } : i % 3 === 1 ? { space: b.id } : {})).id);
    await makeLink(h(), other.key);
    await assertTotals(db, store, account.id, 'as made');

    // Disabled, expired by date and by clicks, moved to a domain: through the API and in SQL.
    assert.equal((await h().request('PUT', `/api/v1/links/${ids[0]}`, { key, form: { disabled: '1' } })).status, 200);
    await sql`update links set ends_at = ${Date.now() - 1000} where id in (${ids[1]}, ${ids[2]})`.execute(db);
    await sql`update links set expiration_clicks = 5, clicks = 5 where id = ${ids[3]}`.execute(db);
    await sql`update links set expiration_clicks = 5, clicks = 4 where id = ${ids[4]}`.execute(db);
    await sql`update links set domain_id = ${domain.id} where id in (${ids[5]}, ${ids[6]}, ${ids[2]})`.execute(db);
    await sql`update links set disabled = 1, space_id = ${b.id} where id = ${ids[7]}`.execute(db);
    await sql`update links set clicks = clicks + 3 where account_id = ${account.id}`.execute(db);
    await assertTotals(db, store, account.id, 'after edits');

    // Bulk: move, disable, delete.
    const moved = await h().request('PATCH', '/api/v1/links/bulk', {
      key,
      json: { ids: [ids[8], ids[9]], action: 'move', space: a.id },
    });
    assert.equal(moved.status, 200, moved.text);
    const disabled = await h().request('PATCH', '/api/v1/links/bulk', {
      key,
      json: { ids: [ids[9], ids[10]], action: 'disable' },
    });
    assert.equal(disabled.status, 200, disabled.text);
    const deleted = await h().request('DELETE', '/api/v1/links/bulk', { key, json: { ids: [ids[11], ids[1]] } });
    assert.equal(deleted.status, 200, deleted.text);
    await assertTotals(db, store, account.id, 'after bulk actions');

    // A deleted space and domain leave their links without one.
    assert.equal((await h().request('DELETE', `/api/v1/spaces/${a.id}`, { key })).status, 200);
    assert.equal((await h().request('DELETE', `/api/v1/domains/${domain.id}`, { key })).status, 200);
    await assertTotals(db, store, account.id, 'after deleting a space and a domain');

    // A deleted account's counters come to zero; another account's are untouched.
    const counters = (id: number) =>
      db
        .selectFrom('account_link_counts')
        .select((eb) => eb.fn.sum<number | string>('count').as('n'))
        .where('account_id', '=', id)
        .executeTakeFirst()
        .then((r) => Number(r?.n ?? 0));
    await db.deleteFrom('accounts').where('id', '=', account.id).execute();
    assert.equal(await counters(account.id), 0);
    assert.equal(await counters(other.id), 1);
    await assertTotals(db, store, other.id, 'the other account');
  });
});
