import { after, before, describe } from 'node:test';
import { ENGINES } from '../../support/harness.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';
import { sessionStoreContract } from '../../support/session-store-contract.ts';
import { migrateToLatest } from '../../../src/adapters/storage/migrations/index.ts';
import { SqlAccountStore } from '../../../src/adapters/storage/stores/account-store.ts';
import { SqlSessionStore } from '../../../src/adapters/storage/stores/session-store.ts';
import type { Storage } from '../../../src/adapters/storage/connect.ts';

for (const engine of ENGINES) {
  describe(`SessionStore contract: SQL [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    let storage: Storage | null = null;
    let release: () => void = () => {};
    let finished: Promise<void> = Promise.resolve();
    before(async () => {
      storage = await new Promise<Storage>((opened) => {
        finished = withEmptyStorage(engine.name, async (s) => {
          await migrateToLatest(s.db, s.engine);
          opened(s);
          await new Promise<void>((done) => (release = done));
        });
      });
    });
    after(async () => {
      release();
      await finished;
    });
    sessionStoreContract({
      stores: () => ({ accounts: new SqlAccountStore(storage!.db), sessions: new SqlSessionStore(storage!.db) }),
    });
  });
}
