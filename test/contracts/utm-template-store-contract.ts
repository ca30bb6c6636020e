// What every UtmTemplateStore promises (src/core/utm/utm-template-store.ts): the shared promises
// of an account's named rows, and the five parameters. Run against the SQL store on both engines
// and the service's in-memory fake.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { UtmParams } from '../../src/core/utm/utm-params.ts';
import type { UtmTemplate } from '../../src/core/utm/utm-template.ts';
import type { UtmTemplateStore } from '../../src/core/utm/utm-template-store.ts';
import { ownedRowsTests } from './owned-rows-contract.ts';

export interface UtmTemplateStoreSubject {
  templates: UtmTemplateStore;
  account: () => Promise<number>;
}

const params = (over: Partial<UtmParams> = {}): UtmParams => ({
  utm_source: 'news',
  utm_medium: '',
  utm_campaign: 'spring',
  utm_term: '',
  utm_content: '',
  ...over,
});

export function describeUtmTemplateStoreContract(name: string, make: () => UtmTemplateStoreSubject): void {
  describe(`${name}: the UtmTemplateStore contract`, () => {
    ownedRowsTests<UtmTemplate>(
      () => {
        const { templates, account } = make();
        return {
          account,
          rows: {
            insert: (accountId, n, now) => templates.insert(accountId, { name: n, params: params() }, now),
            rename: (accountId, id, n, now) => templates.update(accountId, id, { name: n, params: {} }, now),
            findById: (accountId, id) => templates.findById(accountId, id),
            list: (accountId, filter, page) => templates.list(accountId, filter, page),
            nameTaken: (accountId, n, exceptId) => templates.nameTaken(accountId, n, exceptId),
            delete: (accountId, id) => templates.delete(accountId, id),
          },
        };
      },
      undefined,
      { nameTaken: 'nameTaken', findByIds: false },
    );

    test('the parameters are kept; an update changes the ones given and keeps the others', async () => {
      const { templates, account } = make();
      const mine = await account();
      const made = await templates.insert(mine, { name: 'Params', params: params() }, 1000);
      assert.deepEqual(made.params, params());
      const updated = await templates.update(mine, made.id, { params: { utm_medium: 'email', utm_source: '' } }, 2000);
      assert.deepEqual(updated, { ...made, params: params({ utm_medium: 'email', utm_source: '' }), updatedAt: 2000 });
      assert.deepEqual(await templates.findById(mine, made.id), updated);
    });
  });
}
