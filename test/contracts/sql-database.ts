import { after, before, describe } from 'node:test';
import { ENGINES } from '../support/harness.ts';
import { withEmptyStorage } from '../support/empty-storage.ts';
import { migrateToLatest } from '../../src/adapters/storage/migrations/index.ts';
import type { Storage } from '../../src/adapters/storage/connect.ts';

/**
 * Runs `suite` once per engine against a fresh, fully migrated database of its own (a SQLite file,
 * or a schema of TEST_DATABASE_URL), opened before the suite's tests and removed after them. The
 * suite gets a getter: the database exists only once `before` has run. One database serves every
 * test of the suite, so contract tests make their own accounts and never count what others made.
 */
export function onEachSqlEngine(title: string, suite: (storage: () => Storage) => void): void {
  for (const engine of ENGINES) {
    describe(`${title} [${engine.name}]`, { skip: engine.skip ?? false }, () => {
      let storage: Storage | null = null;
      let release: () => void = () => {};
      let finished: Promise<void> = Promise.resolve();
      before(async () => {
        storage = await new Promise<Storage>((opened, failed) => {
          finished = withEmptyStorage(engine.name, async (s) => {
            await migrateToLatest(s.db, s.engine);
            opened(s);
            await new Promise<void>((done) => (release = done));
          }).catch(failed);
        });
      });
      after(async () => {
        release();
        await finished;
      });
      suite(() => {
        if (!storage) throw new Error('the database is not open yet');
        return storage;
      });
    });
  }
}
