// What every LinkHealthStore promises (src/core/health/ports.ts), as the health checks rely on it
// (docs/design/health.md): run on the memory fake and on the SQL store on both engines. The SQL
// database is shared with other suites, whose links are due too: each test asks for many and
// looks at its own.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LinkHealth } from '../../src/core/health/health.ts';
import type { LinkHealthStore } from '../../src/core/health/ports.ts';

export interface LinkHealthStoreFixture {
  store: LinkHealthStore;
  account: () => Promise<number>;
  link: (accountId: number, url: string, disabled?: boolean) => Promise<number>;
  setUrl: (linkId: number, url: string) => Promise<void>;
}

const MANY = 100_000;
const broken = (at: number): LinkHealth => ({
  status: 'broken',
  code: 404,
  reason: 'status',
  checkedAt: at,
  brokenSince: at,
});

export function describeLinkHealthStoreContract(name: string, make: () => LinkHealthStoreFixture): void {
  describe(`${name}: the LinkHealthStore contract`, () => {
    test('enabled links never checked are due, unknown, leased to one holder until the lease runs out', async () => {
      const { store, account, link } = make();
      const owner = await account();
      const a = await link(owner, 'https://a.example/');
      const off = await link(owner, 'https://off.example/', true);
      const mine = (rows: { linkId: number }[]) => rows.map((r) => r.linkId).filter((id) => id === a || id === off);
      const first = await store.claimDue('one', 1000, 2000, MANY);
      assert.deepEqual(mine(first), [a], 'a disabled link is not due');
      const claimed = first.find((r) => r.linkId === a)!;
      assert.equal(claimed.accountId, owner);
      assert.equal(claimed.url, 'https://a.example/');
      assert.equal(claimed.health.status, 'unknown');
      assert.deepEqual(mine(await store.claimDue('two', 1500, 2500, MANY)), [], 'leased');
      assert.deepEqual(mine(await store.claimDue('two', 2001, 3000, MANY)), [a], 'past its lease');
    });

    test('a recorded result ends the lease, waits for its next check, and is read back', async () => {
      const { store, account, link } = make();
      const owner = await account();
      const a = await link(owner, 'https://b.example/');
      await store.claimDue('one', 1000, 2000, MANY);
      await store.record(a, 'https://b.example/', broken(1100), 5000);
      assert.deepEqual((await store.healthOf(owner, [a])).get(a), broken(1100));
      assert.equal((await store.healthOf(owner + 100_000, [a])).size, 0, "another account's read finds nothing");
      const ids = async (now: number) =>
        (await store.claimDue('two', now, now + 1000, MANY)).filter((r) => r.linkId === a);
      assert.deepEqual(await ids(4999), [], 'not due before its time');
      const [again] = await ids(5000);
      assert.deepEqual(again?.health, broken(1100), 'a claim carries the health before');
    });

    test('a link checked at another url reads unknown; a check at once records without a claim', async () => {
      const { store, account, link, setUrl } = make();
      const owner = await account();
      const a = await link(owner, 'https://c.example/');
      await store.record(a, 'https://c.example/', broken(1000), 9000);
      assert.equal((await store.healthOf(owner, [a])).get(a)?.status, 'broken');
      await setUrl(a, 'https://d.example/');
      assert.equal((await store.healthOf(owner, [a])).has(a), false);
    });

    test('two holders claiming at once never take the same link', async () => {
      const { store, account, link } = make();
      const owner = await account();
      const ids = new Set<number>();
      for (let i = 0; i < 6; i++) ids.add(await link(owner, `https://e${i}.example/`));
      const [one, two] = await Promise.all([
        store.claimDue('one', 50_000, 60_000, MANY),
        store.claimDue('two', 50_000, 60_000, MANY),
      ]);
      const a = one.map((r) => r.linkId).filter((id) => ids.has(id));
      const b = two.map((r) => r.linkId).filter((id) => ids.has(id));
      assert.equal(a.filter((id) => b.includes(id)).length, 0, 'disjoint');
      assert.equal(a.length + b.length, ids.size, 'every due link taken by one of them');
    });
  });
}
