import { describeUtmTemplateStoreContract } from '../utm-template-store-contract.ts';
import { MemoryUtmTemplateStore } from '../../support/fakes/utm-fakes.ts';

let accounts = 0;
describeUtmTemplateStoreContract('MemoryUtmTemplateStore (fake)', () => ({
  templates: new MemoryUtmTemplateStore(),
  account: async () => ++accounts,
}));
