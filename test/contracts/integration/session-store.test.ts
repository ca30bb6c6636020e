import { onEachSqlEngine } from '../sql-database.ts';
import { describeSessionStoreContract } from '../session-store-contract.ts';
import { SqlAccountStore } from '../../../src/adapters/storage/stores/account-store.ts';
import { SqlSessionStore } from '../../../src/adapters/storage/stores/session-store.ts';

onEachSqlEngine('SQL stores', (storage) => {
  describeSessionStoreContract('SqlSessionStore', {
    stores: () => ({ accounts: new SqlAccountStore(storage().db), sessions: new SqlSessionStore(storage().db) }),
  });
});
