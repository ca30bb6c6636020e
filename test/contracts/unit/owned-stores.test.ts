// The SpaceStore, PixelStore and DomainStore contracts on the core's fakes (test/support/fakes/link-fakes.ts).
import { describeDomainStoreContract } from '../domain-store-contract.ts';
import { describePixelStoreContract } from '../pixel-store-contract.ts';
import { describeSpaceStoreContract } from '../space-store-contract.ts';
import { MemoryDomainStore, MemoryPixelStore, MemorySpaceStore } from '../../support/fakes/link-fakes.ts';

let accounts = 0;
const account = async () => ++accounts;
// What the importer and the links' views use of them.
const has = ['insert', 'list', 'findByIds'];

describeSpaceStoreContract('MemorySpaceStore (fake)', () => ({ spaces: new MemorySpaceStore(), account }), { has });
describePixelStoreContract('MemoryPixelStore (fake)', () => ({ pixels: new MemoryPixelStore(), account }), { has });
describeDomainStoreContract('MemoryDomainStore (fake)', () => ({ domains: new MemoryDomainStore(), account }), { has });
