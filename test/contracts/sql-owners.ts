import type { Kysely } from 'kysely';
import type { Database } from '../../src/adapters/storage/schema.ts';
import { SqlAccountStore } from '../../src/adapters/storage/stores/account-store.ts';
import { SqlDomainStore } from '../../src/adapters/storage/stores/domain-store.ts';
import { SqlPixelStore } from '../../src/adapters/storage/stores/pixel-store.ts';
import { SqlSpaceStore } from '../../src/adapters/storage/stores/space-store.ts';

let made = 0;
/** A name no other row of the run has (names are unique per account, domains across the service). */
const unique = (stem: string) => `${stem}${process.pid.toString(36)}${Date.now().toString(36)}${(++made).toString(36)}`;

/** Rows the SQL stores' foreign keys ask for, made through the stores themselves. */
export function sqlOwners(db: Kysely<Database>) {
  return {
    account: async () =>
      (
        await new SqlAccountStore(db).createWithPassword(
          { email: `${unique('c')}@example.com`, name: 'Contract', timezone: 'UTC' },
          'hash',
          1000,
        )
      ).id,
    domain: async (accountId: number) => {
      const domain = await new SqlDomainStore(db).insert(
        accountId,
        {
          name: `${unique('d')}.example.com`,
          indexPage: null,
          notFoundPage: null,
          appleAppSiteAssociation: null,
          assetLinks: null,
          verificationToken: 't',
          verifiedAt: null,
        },
        1000,
      );
      if (domain === 'taken') throw new Error('a fresh domain name was taken');
      return domain.id;
    },
    space: async (accountId: number) =>
      (await new SqlSpaceStore(db).insert(accountId, { name: unique('s').slice(0, 32), color: 1 }, 1000)).id,
    pixel: async (accountId: number) =>
      (
        await new SqlPixelStore(db).insert(
          accountId,
          { name: unique('p').slice(0, 32), type: 'facebook', value: 'x' },
          1000,
        )
      ).id,
  };
}
