import { describeLinkHealthStoreContract } from '../link-health-store-contract.ts';
import { MemoryLinkHealthStore } from '../../support/fakes/health-fakes.ts';

let accounts = 0;
describeLinkHealthStoreContract('MemoryLinkHealthStore', () => {
  const store = new MemoryLinkHealthStore();
  return {
    store,
    account: async () => ++accounts,
    link: async (accountId, url, disabled) => store.addLink(accountId, url, disabled),
    setUrl: async (linkId, url) => store.setUrl(linkId, url),
  };
});
