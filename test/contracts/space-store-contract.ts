// What every SpaceStore promises (src/core/spaces/space-store.ts): the shared promises of an
// account's named rows, and a space's colour. Run against the SQL store on both engines and the fake.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SpaceStore } from '../../src/core/spaces/space-store.ts';
import type { Space } from '../../src/core/spaces/space.ts';
import { ownedRowsTests, type Has } from './owned-rows-contract.ts';

export interface SpaceStoreSubject {
  spaces: SpaceStore;
  account: () => Promise<number>;
}

export function describeSpaceStoreContract(
  name: string,
  make: () => SpaceStoreSubject,
  options: { has?: Has } = {},
): void {
  describe(`${name}: the SpaceStore contract`, () => {
    ownedRowsTests<Space>(() => {
      const { spaces, account } = make();
      return {
        account,
        rows: {
          insert: (accountId, n, now) => spaces.insert(accountId, { name: n, color: 3 }, now),
          rename: (accountId, id, n, now) => spaces.update(accountId, id, { name: n }, now),
          findById: (accountId, id) => spaces.findById(accountId, id),
          findByIds: (accountId, ids) => spaces.findByIds(accountId, ids),
          list: (accountId, filter, page) => spaces.list(accountId, filter, page),
          nameTaken: (accountId, n, exceptId) => spaces.nameTaken(accountId, n, exceptId),
          delete: (accountId, id) => spaces.delete(accountId, id),
        },
      };
    }, options.has);

    const hasUpdate = !options.has || options.has.includes('update');
    test(
      'a colour is kept, and changed alone by an update',
      { skip: hasUpdate ? false : `${name} has no update` },
      async () => {
        const { spaces, account } = make();
        const mine = await account();
        const made = await spaces.insert(mine, { name: 'Colour', color: 6 }, 1000);
        assert.equal(made.color, 6);
        assert.deepEqual(await spaces.update(mine, made.id, { color: 2 }, 2000), {
          ...made,
          color: 2,
          updatedAt: 2000,
        });
      },
    );
  });
}
