import { describeAccountStoreContract } from '../account-store-contract.ts';
import { MemoryAccountStore } from '../../support/fakes/account-fakes.ts';

describeAccountStoreContract('MemoryAccountStore (fake)', () => new MemoryAccountStore());
