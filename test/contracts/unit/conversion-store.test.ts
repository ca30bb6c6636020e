// The ConversionStore contract on the in-memory fake (test/support/fakes/conversion-fakes.ts):
// it keeps no clicks, so the grouping tests are reported skipped.
import { describeConversionStoreContract } from '../conversion-store-contract.ts';
import { MemoryConversions } from '../../support/fakes/conversion-fakes.ts';

let links = 0;
describeConversionStoreContract(
  'MemoryConversions (fake)',
  () => ({ conversions: new MemoryConversions(), link: async () => ++links }),
  { has: ['record', 'namesOf'] },
);
