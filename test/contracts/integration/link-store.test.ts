import { onEachSqlEngine } from '../sql-database.ts';
import { sqlOwners } from '../sql-owners.ts';
import { describeLinkStoreContract } from '../link-store-contract.ts';
import { SqlLinkStore } from '../../../src/adapters/storage/stores/link-store.ts';

onEachSqlEngine('SQL stores', (storage) => {
  describeLinkStoreContract('SqlLinkStore', () => {
    const { db, engine } = storage();
    return {
      links: new SqlLinkStore(db, engine),
      ...sqlOwners(db),
      setClicks: async (linkId, clicks) => {
        await db.updateTable('links').set({ clicks }).where('id', '=', linkId).execute();
      },
    };
  });
});
