// What the stores of things an account names and owns (spaces, pixels, domains, UTM templates)
// promise alike: each port's own suite maps its store onto this shape and adds what is its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, PageRequest } from '../../src/core/shared/page.ts';

export interface OwnedItem {
  id: number;
  accountId: number;
  name: string;
  createdAt: number;
  updatedAt: number;
}

/** A store seen through its shared promises; `insert` and `rename` wrap the port's own fields. */
export interface OwnedRows<Item extends OwnedItem> {
  insert(accountId: number, name: string, now: number): Promise<Item>;
  rename(accountId: number, id: number, name: string, now: number): Promise<Item | null>;
  findById(accountId: number, id: number): Promise<Item | null>;
  /** Absent where the port has none. */
  findByIds?(accountId: number, ids: readonly number[]): Promise<Item[]>;
  list(accountId: number, filter: { search?: string; sort: 'asc' | 'desc' }, page: PageRequest): Promise<Page<Item>>;
  /** The port's "is this name the account's already" (ignoring case). */
  nameTaken(accountId: number, name: string, exceptId?: number): Promise<boolean>;
  delete(accountId: number, id: number): Promise<boolean>;
}

export interface OwnedRowsSubject<Item extends OwnedItem> {
  rows: OwnedRows<Item>;
  account: () => Promise<number>;
}

/** The methods of the port a subject has, when not all (a fake made for a few tests). */
export type Has = readonly string[] | undefined;

const NOW = Date.UTC(2026, 0, 15, 12);
let names = 0;
const fresh = (stem: string) => `${stem}${(++names).toString(36)}`;
const idsOf = (items: readonly OwnedItem[]) => items.map((i) => i.id);
const byId = (a: number, b: number) => a - b;

/**
 * The shared tests. `port` names the port's methods each test needs (`nameTaken` may be the
 * port's `nameHeldBy`); a test that needs one the subject lacks is reported as skipped.
 */
export function ownedRowsTests<Item extends OwnedItem>(
  make: () => OwnedRowsSubject<Item>,
  has: Has,
  port: { nameTaken: string; findByIds: boolean } = { nameTaken: 'nameTaken', findByIds: true },
): void {
  const it = (title: string, uses: string[], fn: (s: OwnedRowsSubject<Item>) => Promise<void>) => {
    const missing = has ? uses.filter((m) => !has.includes(m)) : [];
    test(title, { skip: missing.length > 0 ? `the subject has no ${missing.join(', ')}` : false }, () => fn(make()));
  };

  it('insert answers the new row; findById finds it for its account only', ['insert', 'findById'], async (s) => {
    const [mine, theirs] = [await s.account(), await s.account()];
    const name = fresh('first');
    const made = await s.rows.insert(mine, name, NOW);
    assert.equal(made.accountId, mine);
    assert.equal(made.name, name);
    assert.equal(made.createdAt, NOW);
    assert.equal(made.updatedAt, NOW);
    assert.deepEqual(await s.rows.findById(mine, made.id), made);
    assert.equal(await s.rows.findById(theirs, made.id), null);
    assert.equal(await s.rows.findById(mine, 999_999_999), null);
  });

  if (port.findByIds)
    it(
      "findByIds: the account's rows among the ids; others and unknown ids are skipped",
      ['insert', 'findByIds'],
      async (s) => {
        const [mine, theirs] = [await s.account(), await s.account()];
        const [a, b] = [await s.rows.insert(mine, fresh('a'), NOW), await s.rows.insert(mine, fresh('b'), NOW)];
        const foreign = await s.rows.insert(theirs, fresh('c'), NOW);
        assert.deepEqual(
          idsOf(await s.rows.findByIds!(mine, [b.id, foreign.id, a.id, 999_999_999])).sort(byId),
          [a.id, b.id].sort(byId),
        );
        assert.deepEqual(await s.rows.findByIds!(mine, []), []);
      },
    );

  it(
    'list pages the account’s rows by id (desc or asc) with their total; search is a substring of the name, ignoring case',
    ['insert', 'list'],
    async (s) => {
      const [mine, theirs] = [await s.account(), await s.account()];
      const made = [];
      for (let i = 0; i < 12; i++) made.push(await s.rows.insert(mine, fresh(i % 3 === 0 ? 'Promo' : 'plain'), NOW));
      await s.rows.insert(theirs, fresh('promo'), NOW);
      const ids = idsOf(made);
      const first = await s.rows.list(mine, { sort: 'desc' }, { page: 1, perPage: 10 });
      assert.deepEqual(idsOf(first.items), [...ids].reverse().slice(0, 10));
      assert.deepEqual([first.total, first.page, first.perPage], [12, 1, 10]);
      assert.deepEqual(idsOf((await s.rows.list(mine, { sort: 'desc' }, { page: 2, perPage: 10 })).items), [
        ids[1],
        ids[0],
      ]);
      assert.deepEqual(
        idsOf((await s.rows.list(mine, { sort: 'asc' }, { page: 1, perPage: 10 })).items),
        ids.slice(0, 10),
      );
      const found = await s.rows.list(mine, { search: 'ROMO', sort: 'asc' }, { page: 1, perPage: 10 });
      assert.deepEqual(idsOf(found.items), [ids[0], ids[3], ids[6], ids[9]]);
      assert.equal(found.total, 4);
      assert.equal(
        (await s.rows.list(mine, { search: '100%', sort: 'asc' }, { page: 1, perPage: 10 })).total,
        0,
        'like wildcards are plain characters',
      );
    },
  );

  it('rename is the account’s own and moves updatedAt', ['insert', 'update', 'findById'], async (s) => {
    const [mine, theirs] = [await s.account(), await s.account()];
    const made = await s.rows.insert(mine, fresh('old'), NOW);
    const name = fresh('new');
    const renamed = await s.rows.rename(mine, made.id, name, NOW + 5);
    assert.deepEqual(renamed, { ...made, name, updatedAt: NOW + 5 });
    assert.deepEqual(await s.rows.findById(mine, made.id), renamed);
    assert.equal(await s.rows.rename(theirs, made.id, fresh('stolen'), NOW), null);
    assert.equal(await s.rows.rename(mine, 999_999_999, fresh('none'), NOW), null);
  });

  it(
    'whether a name is the account’s already: ignoring case, per account, leaving one row out',
    ['insert', port.nameTaken],
    async (s) => {
      const [mine, theirs] = [await s.account(), await s.account()];
      const name = fresh('taken');
      const made = await s.rows.insert(mine, name, NOW);
      assert.equal(await s.rows.nameTaken(mine, name.toUpperCase()), true);
      assert.equal(await s.rows.nameTaken(mine, name, made.id), false);
      assert.equal(await s.rows.nameTaken(theirs, name), false);
      assert.equal(await s.rows.nameTaken(mine, fresh('free')), false);
    },
  );

  it('delete is the account’s own and says whether it deleted', ['insert', 'delete', 'findById'], async (s) => {
    const [mine, theirs] = [await s.account(), await s.account()];
    const made = await s.rows.insert(mine, fresh('gone'), NOW);
    assert.equal(await s.rows.delete(theirs, made.id), false);
    assert.equal(await s.rows.delete(mine, made.id), true);
    assert.equal(await s.rows.delete(mine, made.id), false);
    assert.equal(await s.rows.findById(mine, made.id), null);
  });
}
