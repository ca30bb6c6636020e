import { describeSecurityStoresContract } from '../security-stores-contract.ts';
import {
  MemoryChallengeStore,
  MemoryPasswordResetStore,
  MemoryTwoFactorStore,
} from '../../support/fakes/security-fakes.ts';

let people = 0;

// The fakes the core's unit tests use keep the promises the SQL stores keep.
describeSecurityStoresContract('Memory security stores (fakes)', () => ({
  twoFactor: new MemoryTwoFactorStore(),
  challenges: new MemoryChallengeStore(),
  resets: new MemoryPasswordResetStore(),
  person: async () => ++people,
}));
