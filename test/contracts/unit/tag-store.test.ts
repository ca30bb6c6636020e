import { describeTagStoreContract } from '../tag-store-contract.ts';
import { MemoryTagStore } from '../../support/fakes/tag-fakes.ts';

const owners = new Map<number, number>();
let accounts = 0;

describeTagStoreContract('MemoryTagStore (fake)', () => ({
  tags: new MemoryTagStore((linkId) => owners.get(linkId)),
  account: async () => ++accounts,
  link: async (accountId) => {
    const id = owners.size + 1;
    owners.set(id, accountId);
    return id;
  },
}));
