// The ClickClaimStore and RotationStore contracts on the in-memory fakes (test/support/fakes/claim-fakes.ts).
import { describeClaimStoresContract } from '../claim-stores-contract.ts';
import { MemoryClickClaimStore, MemoryRotationStore } from '../../support/fakes/claim-fakes.ts';

describeClaimStoresContract('MemoryClickClaimStore, MemoryRotationStore (fakes)', () => {
  const clicks = new Map<number, number>();
  return {
    claims: new MemoryClickClaimStore((id) => clicks.get(id)),
    rotations: new MemoryRotationStore(),
    link: async (n = 0) => {
      const id = clicks.size + 1;
      clicks.set(id, n);
      return id;
    },
  };
});
