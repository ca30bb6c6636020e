import { describeLinkStoreContract } from '../link-store-contract.ts';
import {
  MemoryDomainStore,
  MemoryLinkStore,
  MemoryPixelStore,
  MemorySpaceStore,
} from '../../support/fakes/link-fakes.ts';

// One fake for the whole run, as one database serves the SQL store's run: aliases are unique across it.
const links = new MemoryLinkStore();
const domains = new MemoryDomainStore();
const spaces = new MemorySpaceStore();
const pixels = new MemoryPixelStore();
let accounts = 0;

describeLinkStoreContract(
  'MemoryLinkStore (fake)',
  () => ({
    links,
    account: async () => ++accounts,
    domain: async (accountId) => domains.add(accountId, `d${domains.domains.length}.example.com`).id,
    space: async (accountId) => (await spaces.insert(accountId, { name: `s${spaces.spaces.length}`, color: 1 }, 0)).id,
    pixel: async (accountId) => pixels.add(accountId, `p${pixels.pixels.length}`).id,
    setClicks: async (linkId, clicks) => {
      links.links.find((l) => l.id === linkId)!.clicks = clicks;
    },
  }),
  { has: ['aliasOwners', 'insertMany', 'update', 'findByIds'] },
);
