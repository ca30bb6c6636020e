// The SsoIdentityStore contract on the in-memory fake (test/support/fakes/sso-fakes.ts).
import { describeSsoIdentityStoreContract } from '../sso-identity-store-contract.ts';
import { MemoryAccountStore } from '../../support/fakes/account-fakes.ts';
import { MemorySsoIdentityStore } from '../../support/fakes/sso-fakes.ts';

describeSsoIdentityStoreContract('MemorySsoIdentityStore (fake)', () => {
  const accounts = new MemoryAccountStore();
  return { identities: new MemorySsoIdentityStore(accounts), accounts };
});
