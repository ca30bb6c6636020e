// What every AdminStore promises (src/core/admin/admin-store.ts), as the operators' pages and
// the CLI rely on it: run against the SQL store on both engines. Its reads span every account of
// a database other suites share, so each test searches for names only it made, and the totals
// are asserted as what the test added to them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AdminStore } from '../../src/core/admin/admin-store.ts';

export interface AdminStoreSubject {
  admin: AdminStore;
  /** A fresh account with this email. */
  account: (email: string) => Promise<number>;
  /** A link of the account with these alias, URL and clicks. */
  link: (accountId: number, fields: { alias: string; url: string; clicks?: number }) => Promise<number>;
}

let made = 0;
/** A stem no other test of the run has, in lower case (the searches are asked in upper case). */
const stem = () => `adm${process.pid.toString(36)}${Date.now().toString(36)}${(++made).toString(36)}`;
const page = (n: number, perPage = 10) => ({ page: n, perPage });

export function describeAdminStoreContract(name: string, make: () => AdminStoreSubject): void {
  describe(`${name}: the AdminStore contract`, () => {
    test('accounts: newest first, searched in part and in any case, paged; account answers its number of links', async () => {
      const s = make();
      const tag = stem();
      const ids = [
        await s.account(`${tag}-a@example.com`),
        await s.account(`${tag}-b@example.com`),
        await s.account(`${tag}-c@example.com`),
      ];
      await s.link(ids[0]!, { alias: `${tag}x`, url: 'https://example.com/' });
      const found = await s.admin.accounts(tag.toUpperCase(), page(1));
      assert.deepEqual(
        found.items.map((a) => a.account.id),
        [...ids].reverse(),
      );
      assert.equal(found.total, 3);
      const second = await s.admin.accounts(`${tag}-`, { page: 2, perPage: 2 });
      assert.deepEqual([second.items.map((a) => a.account.id), second.total], [[ids[0]], 3]);
      assert.deepEqual(await s.admin.account(ids[0]!), { account: found.items[2]!.account, links: 1 });
      assert.equal(await s.admin.account(2 ** 31 - 1), null);
    });

    test('suspension keeps its first time until cleared; operator on and off; none for a missing account', async () => {
      const s = make();
      const id = await s.account(`${stem()}@example.com`);
      assert.equal((await s.admin.setSuspended(id, 1000))?.suspendedAt, 1000);
      assert.equal((await s.admin.setSuspended(id, 2000))?.suspendedAt, 1000);
      assert.equal((await s.admin.setSuspended(id, null))?.suspendedAt, null);
      assert.equal((await s.admin.setOperator(id, true))?.isAdmin, true);
      assert.equal((await s.admin.setOperator(id, false))?.isAdmin, false);
      assert.equal(await s.admin.setSuspended(2 ** 31 - 1, 1000), null);
      assert.equal(await s.admin.setOperator(2 ** 31 - 1, true), null);
    });

    test('links: newest first, searched by alias, URL or owner’s email in any case, with their owner; disabled and enabled again', async () => {
      const s = make();
      const tag = stem();
      const owner = await s.account(`${tag}@example.com`);
      const other = await s.account(`${stem()}@example.com`);
      const byAlias = await s.link(other, { alias: `${tag}alias`, url: 'https://example.com/' });
      const byUrl = await s.link(other, { alias: stem(), url: `https://example.com/${tag}` });
      const byOwner = await s.link(owner, { alias: stem(), url: 'https://example.com/' });
      const found = await s.admin.links(tag.toUpperCase(), page(1));
      assert.deepEqual(
        found.items.map((l) => [l.link.id, l.owner.id, l.domainName]),
        [
          [byOwner, owner, null],
          [byUrl, other, null],
          [byAlias, other, null],
        ],
      );
      assert.equal(found.total, 3);
      await s.admin.setSuspended(owner, 5000);
      const [mine] = (await s.admin.links(`${tag}@`, page(1))).items;
      assert.deepEqual(mine?.owner, { id: owner, email: `${tag}@example.com`, suspended: true });
      assert.equal((await s.admin.setLinkDisabled(byAlias, true, 6000))?.disabled, 1);
      assert.equal((await s.admin.setLinkDisabled(byAlias, false, 7000))?.disabled, 0);
      assert.equal(await s.admin.setLinkDisabled(2 ** 31 - 1, true, 7000), null);
    });

    test('totals grow by the accounts, links and clicks added', async () => {
      const s = make();
      const before = await s.admin.totals('2000-01-01');
      const id = await s.account(`${stem()}@example.com`);
      await s.link(id, { alias: stem(), url: 'https://example.com/', clicks: 5 });
      await s.link(id, { alias: stem(), url: 'https://example.com/', clicks: 2 });
      const after = await s.admin.totals('2000-01-01');
      assert.deepEqual(
        [
          after.accounts - before.accounts,
          after.links - before.links,
          after.clicks - before.clicks,
          after.recentClicks - before.recentClicks,
        ],
        [1, 2, 7, 0],
        'the counters, not the rollups, make the clicks',
      );
    });
  });
}
