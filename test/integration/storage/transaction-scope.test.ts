// The unit of work on real databases (transaction-scope.ts): stores keep writing through `db`,
// and what they write inside a unit commits together or not at all, on both engines.
import { AsyncResource } from 'node:async_hooks';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { ENGINES } from '../../support/harness.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';
import type { Storage } from '../../../src/adapters/storage/connect.ts';

// Two small stores as the real ones are written: one opens a transaction of its own (as
// SqlLinkStore.insert does), the other writes a plain statement (as the delivery outbox does).
interface Tables {
  things: { id: number; name: string };
  notes: { id: number; text: string };
}

class Things {
  constructor(private readonly db: Kysely<Tables>) {}
  add(id: number, name: string): Promise<void> {
    return this.db.transaction().execute(async (trx) => {
      await trx.insertInto('things').values({ id, name }).execute();
    });
  }
  async names(): Promise<string[]> {
    return (await this.db.selectFrom('things').select('name').orderBy('id').execute()).map((r) => r.name);
  }
}

class Notes {
  constructor(private readonly db: Kysely<Tables>) {}
  async add(id: number, text: string): Promise<void> {
    await this.db.insertInto('notes').values({ id, text }).execute();
  }
  async texts(): Promise<string[]> {
    return (await this.db.selectFrom('notes').select('text').orderBy('id').execute()).map((r) => r.text);
  }
}

async function withStores(engine: 'sqlite' | 'postgres', fn: (s: { storage: Storage; things: Things; notes: Notes }) => Promise<void>) {
  await withEmptyStorage(engine, async (storage) => {
    const db = storage.db as unknown as Kysely<Tables>;
    await sql`create table things (id integer primary key, name text not null unique)`.execute(db);
    await sql`create table notes (id integer primary key, text text not null)`.execute(db);
    await fn({ storage, things: new Things(db), notes: new Notes(db) });
  });
}

/** Runs `fn` in the context this file was loaded in: outside any unit, as another request would. */
const outsideAnyUnit = AsyncResource.bind(<T>(fn: () => T): T => fn());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const engine of ENGINES) {
  describe(`unit of work [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    test('the writes of several stores commit together; reads inside see them first', async () => {
      await withStores(engine.name, async ({ storage, things, notes }) => {
        const seen = await storage.unitOfWork(async () => {
          await things.add(1, 'one');
          await notes.add(1, 'about one');
          return [await things.names(), await notes.texts()];
        });
        assert.deepEqual(seen, [['one'], ['about one']]);
        assert.deepEqual([await things.names(), await notes.texts()], [['one'], ['about one']]);
      });
    });

    test('a throw rolls back every store’s writes and reaches the caller; afterCommit tasks run only after a commit', async () => {
      await withStores(engine.name, async ({ storage, things, notes }) => {
        const ran: string[] = [];
        await assert.rejects(
          storage.unitOfWork(async () => {
            await things.add(1, 'one');
            await notes.add(1, 'about one');
            storage.afterCommit(() => ran.push('rolled back'));
            throw new Error('the enqueue failed');
          }),
          /the enqueue failed/,
        );
        assert.deepEqual([await things.names(), await notes.texts()], [[], []]);
        await storage.unitOfWork(async () => {
          await things.add(2, 'two');
          storage.afterCommit(() => ran.push(`committed, seeing ${things.constructor.name}`));
          assert.deepEqual(ran, [], 'not before the commit');
        });
        assert.deepEqual(ran, ['committed, seeing Things']);
        storage.afterCommit(() => ran.push('outside'));
        assert.deepEqual(ran.at(-1), 'outside', 'outside a unit: at once');
      });
    });

    test('a store transaction that fails and is caught undoes only its part (a savepoint); the unit goes on and commits the rest', async () => {
      await withStores(engine.name, async ({ storage, things, notes }) => {
        await storage.unitOfWork(async () => {
          await things.add(1, 'one');
          // The unique violation, as the importer's insertMany meets it before going row by row.
          await assert.rejects(things.add(2, 'one'));
          await things.add(3, 'three');
          await notes.add(1, 'after the failure');
        });
        assert.deepEqual([await things.names(), await notes.texts()], [['one', 'three'], ['after the failure']]);
        // Not caught: the whole unit goes.
        await assert.rejects(
          storage.unitOfWork(async () => {
            await notes.add(2, 'lost');
            await things.add(4, 'one');
          }),
        );
        assert.deepEqual(await notes.texts(), ['after the failure']);
      });
    });

    test('store transactions run one after another in a unit; two at once are refused, not interleaved', async () => {
      await withStores(engine.name, async ({ storage, things }) => {
        await assert.rejects(
          storage.unitOfWork(() => Promise.all([things.add(1, 'one'), things.add(2, 'two')])),
          /already running in this unit of work/,
        );
        assert.deepEqual(await things.names(), []);
        // Plain reads at once are fine on the one connection.
        const counts = await storage.unitOfWork(async () => {
          await things.add(1, 'one');
          return Promise.all([things.names(), things.names(), things.names()]);
        });
        assert.deepEqual(counts, [['one'], ['one'], ['one']]);
      });
    });

    test('a unit inside another joins it', async () => {
      await withStores(engine.name, async ({ storage, things, notes }) => {
        await assert.rejects(
          storage.unitOfWork(async () => {
            await storage.unitOfWork(() => things.add(1, 'inner'));
            await notes.add(1, 'outer');
            throw new Error('outer fails');
          }),
        );
        assert.deepEqual([await things.names(), await notes.texts()], [[], []]);
      });
    });

    test('work started in a unit and run after it ended uses the pool (a title fetched in the background)', async () => {
      await withStores(engine.name, async ({ storage, things, notes }) => {
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        let later: Promise<string[]> | null = null;
        await storage.unitOfWork(async () => {
          await things.add(1, 'one');
          later = gate.then(async () => {
            await notes.add(1, 'written after the unit');
            return things.names();
          });
        });
        release();
        assert.deepEqual(await later!, ['one']);
        assert.deepEqual(await notes.texts(), ['written after the unit']);
        // It was not part of the finished unit: a failing unit now does not take it along.
        await assert.rejects(storage.unitOfWork(() => Promise.reject(new Error('x'))));
        assert.deepEqual(await notes.texts(), ['written after the unit']);
      });
    });

    if (engine.name === 'postgres') {
      test('two units at once use two connections and do not see each other’s uncommitted writes', async () => {
        await withStores('postgres', async ({ storage, things, notes }) => {
          let aWrote!: () => void;
          const wroteA = new Promise<void>((resolve) => (aWrote = resolve));
          let bRead!: () => void;
          const readB = new Promise<void>((resolve) => (bRead = resolve));
          const pid = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(storage.db)).rows[0]!.pid;
          const a = storage.unitOfWork(async () => {
            await things.add(1, 'from a');
            aWrote();
            await readB;
            return [await pid(), await things.names()];
          });
          const b = storage.unitOfWork(async () => {
            await wroteA;
            const before = await things.names();
            await notes.add(1, 'from b');
            bRead();
            return [await pid(), before];
          });
          const [[pidA, seenByA], [pidB, seenByB]] = await Promise.all([a, b]);
          assert.notEqual(pidA, pidB);
          assert.deepEqual(seenByB, [], 'b does not see a’s uncommitted row');
          assert.deepEqual(seenByA, ['from a']);
          assert.deepEqual([await things.names(), await notes.texts()], [['from a'], ['from b']]);
        });
      });
    }

    if (engine.name === 'sqlite') {
      test('a query outside a unit waits for it to end, and the unit does not wait for that query', async () => {
        await withStores('sqlite', async ({ storage, things, notes }) => {
          const order: string[] = [];
          let outside: Promise<string[]> | null = null;
          await storage.unitOfWork(async () => {
            await things.add(1, 'one');
            outside = outsideAnyUnit(async () => {
              const names = await things.names();
              order.push('outside');
              return names;
            });
            await sleep(50);
            await notes.add(1, 'still inside');
            order.push('unit');
          });
          assert.deepEqual(await outside!, ['one'], 'the outside read ran after the commit');
          assert.deepEqual(order, ['unit', 'outside']);
        });
      });
    }
  });
}
