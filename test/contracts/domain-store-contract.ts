// What every DomainStore promises (src/core/domains/domain-store.ts): the shared promises of an
// account's named rows, and the claims on a host name (many accounts may claim one, one verifies
// it). Run against the SQL store on both engines and the fake.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { NAME_TAKEN, type DomainStore } from '../../src/core/domains/domain-store.ts';
import type { Domain } from '../../src/core/domains/domain.ts';
import { ownedRowsTests, type Has } from './owned-rows-contract.ts';

export interface DomainStoreSubject {
  domains: DomainStore;
  account: () => Promise<number>;
}

let hosts = 0;
/** Host names are stored lower-cased (the service lowers them); unique across the run. */
const host = (stem: string) =>
  `${stem}.${process.pid.toString(36)}${Date.now().toString(36)}${(++hosts).toString(36)}.example.com`.toLowerCase();
const claim = (name: string, verifiedAt: number | null = null) => ({
  name,
  indexPage: null,
  notFoundPage: null,
  appleAppSiteAssociation: null,
  assetLinks: null,
  verificationToken: 'token',
  verifiedAt,
});

/** A domain the store made, or the test fails: `taken` was not expected. */
function made(domain: Domain | null | typeof NAME_TAKEN): Domain {
  if (domain === null || domain === NAME_TAKEN) throw new Error(`expected a domain, got ${String(domain)}`);
  return domain;
}

export function describeDomainStoreContract(
  name: string,
  make: () => DomainStoreSubject,
  options: { has?: Has } = {},
): void {
  describe(`${name}: the DomainStore contract`, () => {
    ownedRowsTests<Domain>(
      () => {
        const { domains, account } = make();
        return {
          account,
          rows: {
            // Stored as the service hands names over: lower-cased.
            insert: async (accountId, n, now) => made(await domains.insert(accountId, claim(n.toLowerCase()), now)),
            rename: async (accountId, id, n, now) => {
              const renamed = await domains.update(accountId, id, { name: n.toLowerCase() }, now);
              return renamed === null ? null : made(renamed);
            },
            findById: (accountId, id) => domains.findById(accountId, id),
            findByIds: (accountId, ids) => domains.findByIds(accountId, ids),
            list: (accountId, filter, page) => domains.list(accountId, filter, page),
            nameTaken: (accountId, n, exceptId) => domains.nameHeldBy(accountId, n, exceptId),
            delete: (accountId, id) => domains.delete(accountId, id),
          },
        };
      },
      options.has,
      { nameTaken: 'nameHeldBy', findByIds: true },
    );

    const lacks = (...methods: string[]) => {
      const missing = options.has ? methods.filter((m) => !options.has!.includes(m)) : [];
      return missing.length > 0 ? `${name} has no ${missing.join(', ')}` : false;
    };

    test(
      'several accounts may claim a name, one verifies it; claimsOf lists every claim, oldest first',
      { skip: lacks('insert', 'update', 'nameVerified', 'claimsOf') },
      async () => {
        const { domains, account } = make();
        const [a, b, c] = [await account(), await account(), await account()];
        const name = host('shared');
        const first = made(await domains.insert(a, claim(name), 1000));
        const second = made(await domains.insert(b, claim(name), 2000));
        assert.equal(await domains.insert(a, claim(name), 3000), NAME_TAKEN, 'one claim per account and name');
        assert.equal(await domains.nameVerified(name), false);
        made(await domains.update(b, second.id, { verifiedAt: 4000 }, 4000));
        assert.equal(await domains.nameVerified(name), true);
        assert.equal(await domains.nameVerified(name, second.id), false, 'the verified one left out');
        assert.equal(
          await domains.update(a, first.id, { verifiedAt: 5000 }, 5000),
          NAME_TAKEN,
          'a second verified domain of one name',
        );
        assert.equal(await domains.insert(c, claim(name, 6000), 6000), NAME_TAKEN);
        assert.deepEqual(
          (await domains.claimsOf(name)).map((d) => [d.id, d.accountId, d.verifiedAt]),
          [
            [first.id, a, null],
            [second.id, b, 4000],
          ],
        );
        assert.deepEqual(await domains.claimsOf(host('nobody')), []);
      },
    );

    test(
      'pages and the claim are kept, and changed alone by an update',
      { skip: lacks('insert', 'update') },
      async () => {
        const { domains, account } = make();
        const mine = await account();
        const domain = made(
          await domains.insert(
            mine,
            { ...claim(host('pages')), indexPage: 'https://example.com/', notFoundPage: null },
            1000,
          ),
        );
        assert.deepEqual(
          [domain.indexPage, domain.notFoundPage, domain.verificationToken, domain.verifiedAt],
          ['https://example.com/', null, 'token', null],
        );
        const updated = made(await domains.update(mine, domain.id, { notFoundPage: 'https://example.com/404' }, 2000));
        assert.deepEqual(updated, { ...domain, notFoundPage: 'https://example.com/404', updatedAt: 2000 });
      },
    );
  });
}
