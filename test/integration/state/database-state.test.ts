// The database's side of click caps and rotation (what counts while Redis is away), on both
// engines: conditional writes that stay exact when two instances (two pools) race. What one
// instance sees of them: test/contracts/claim-stores-contract.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SqlClickClaimStore } from '../../../src/adapters/storage/stores/click-claim-store.ts';
import { SqlRotationStore } from '../../../src/adapters/storage/stores/rotation-store.ts';
import type { Storage } from '../../../src/adapters/storage/connect.ts';
import { ENGINES } from '../../support/harness.ts';
import { openClickDb, type ClickDb } from '../clicks/click-db.ts';

for (const engine of ENGINES) {
  describe(`database click claims and rotation on ${engine.name}`, { skip: engine.skip }, () => {
    let db: ClickDb;
    // Two instances: two pools on PostgreSQL; an in-memory SQLite database has one connection.
    let second: Storage;

    before(async () => {
      db = await openClickDb(engine.name);
      second = engine.name === 'postgres' ? db.open() : db.storage;
    });
    after(() => db.close());

    const setClicks = (id: number, clicks: number) =>
      db.storage.db.updateTable('links').set({ clicks }).where('id', '=', id).execute();

    test('opened at no less than links.clicks and the floor; 200 claims at once on a cap of 50: exactly the rest pass', async () => {
      const [id] = await db.links(1);
      await setClicks(id!, 7);
      const a = new SqlClickClaimStore(db.storage.db, db.storage.engine);
      const b = new SqlClickClaimStore(second.db, second.engine);
      assert.equal(await a.open(id!, 3, { lostAt: 0 }), 'open');
      assert.equal(await b.open(id!, 10, { lostAt: 0 }), 'open');
      assert.equal(await a.claimed(id!), 10);
      const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b).claim(id!, 50)));
      assert.equal(answers.filter((x) => x === 'granted').length, 40);
      assert.equal(answers.filter((x) => x === 'refused').length, 160);
      assert.equal(await a.claimed(id!), 50);
    });

    test('rotation: the first after known, then 90 at once from two instances over 3 entries: 30 each', async () => {
      const [id] = await db.links(1);
      const a = new SqlRotationStore(db.storage.db);
      const b = new SqlRotationStore(second.db);
      assert.equal(await a.next(id!, 3, 1), 2);
      const positions = await Promise.all(Array.from({ length: 90 }, (_, i) => (i % 2 === 0 ? a : b).next(id!, 3, 1)));
      assert.deepEqual(
        [0, 1, 2].map((p) => positions.filter((x) => x === p).length),
        [30, 30, 30],
      );
      assert.equal(await a.take(id!), 2);
    });
  });
}
