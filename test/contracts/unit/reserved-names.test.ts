// The ReservedNames contract on the in-memory fake (test/support/fakes/reserved-names-fake.ts): one
// set shared by the "instances", as one table is.
import { describeReservedNamesContract } from '../reserved-names-contract.ts';
import { MemoryReservedNames } from '../../support/fakes/reserved-names-fake.ts';

const shared = new MemoryReservedNames();
describeReservedNamesContract('MemoryReservedNames (fake)', () => shared);
