// What every PixelStore promises (src/core/pixels/pixel-store.ts): the shared promises of an
// account's named rows, a pixel's type and value, and the list's type filter. Run against the SQL
// store on both engines and the fake.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PixelStore } from '../../src/core/pixels/pixel-store.ts';
import type { Pixel } from '../../src/core/pixels/pixel.ts';
import { ownedRowsTests, type Has } from './owned-rows-contract.ts';

export interface PixelStoreSubject {
  pixels: PixelStore;
  account: () => Promise<number>;
}

export function describePixelStoreContract(
  name: string,
  make: () => PixelStoreSubject,
  options: { has?: Has } = {},
): void {
  describe(`${name}: the PixelStore contract`, () => {
    ownedRowsTests<Pixel>(() => {
      const { pixels, account } = make();
      return {
        account,
        rows: {
          insert: (accountId, n, now) => pixels.insert(accountId, { name: n, type: 'facebook', value: 'v-1' }, now),
          rename: (accountId, id, n, now) => pixels.update(accountId, id, { name: n }, now),
          findById: (accountId, id) => pixels.findById(accountId, id),
          findByIds: (accountId, ids) => pixels.findByIds(accountId, ids),
          list: (accountId, filter, page) => pixels.list(accountId, filter, page),
          nameTaken: (accountId, n, exceptId) => pixels.nameTaken(accountId, n, exceptId),
          delete: (accountId, id) => pixels.delete(accountId, id),
        },
      };
    }, options.has);

    const lacks = (...methods: string[]) => {
      const missing = options.has ? methods.filter((m) => !options.has!.includes(m)) : [];
      return missing.length > 0 ? `${name} has no ${missing.join(', ')}` : false;
    };

    test('type and value are kept; the list filters by type', { skip: lacks('insert', 'list') }, async () => {
      const { pixels, account } = make();
      const mine = await account();
      const fb = await pixels.insert(mine, { name: 'Fb', type: 'facebook', value: 'A_1' }, 1000);
      const tw = await pixels.insert(mine, { name: 'Tw', type: 'twitter', value: 'b-2' }, 1000);
      assert.deepEqual([fb.type, fb.value, tw.type, tw.value], ['facebook', 'A_1', 'twitter', 'b-2']);
      const twitter = await pixels.list(mine, { type: 'twitter', sort: 'asc' }, { page: 1, perPage: 10 });
      assert.deepEqual(
        twitter.items.map((p) => p.id),
        [tw.id],
      );
      assert.equal(twitter.total, 1);
    });

    test('an update changes only the fields given', { skip: lacks('insert', 'update') }, async () => {
      const { pixels, account } = make();
      const mine = await account();
      const made = await pixels.insert(mine, { name: 'Partial', type: 'bing', value: 'old' }, 1000);
      assert.deepEqual(await pixels.update(mine, made.id, { value: 'new' }, 2000), {
        ...made,
        value: 'new',
        updatedAt: 2000,
      });
    });
  });
}
