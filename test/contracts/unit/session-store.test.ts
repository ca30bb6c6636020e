import { describeSessionStoreContract } from '../session-store-contract.ts';
import { MemoryAccountStore, MemorySessionStore } from '../../support/fakes/account-fakes.ts';

// The fake the core's unit tests use keeps the promises the SQL store keeps.
describeSessionStoreContract('MemorySessionStore (fake)', {
  stores: () => {
    const accounts = new MemoryAccountStore();
    return { accounts, sessions: new MemorySessionStore(accounts) };
  },
});
