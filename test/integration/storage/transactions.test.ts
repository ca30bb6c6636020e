// The unit of work on real databases (storage/transactions.ts): the stores a unit builds on its
// transaction commit together or not at all, and a store's own transaction inside a unit is a
// savepoint, on both engines.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { ENGINES } from '../../support/harness.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';
import { storeTransaction, unitOfWorkOn } from '../../../src/adapters/storage/transactions.ts';

// Two small stores as the real ones are written: one opens a transaction of its own (as
// SqlLinkStore.insert does), the other writes a plain statement (as the delivery outbox does).
interface Tables {
  things: { id: number; name: string };
  notes: { id: number; text: string };
}

class Things {
  constructor(private readonly db: Kysely<Tables>) {}
  add(id: number, name: string): Promise<void> {
    return storeTransaction(this.db, async (trx) => {
      await trx
        .insertInto('notes')
        .values({ id: 1000 + id, text: `while adding ${name}` })
        .execute();
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

const storesOn = (db: Kysely<Tables>) => ({ things: new Things(db), notes: new Notes(db) });

async function withTables(engine: 'sqlite' | 'postgres', fn: (db: Kysely<Tables>) => Promise<void>) {
  await withEmptyStorage(engine, async (storage) => {
    const db = storage.db as unknown as Kysely<Tables>;
    await sql`create table things (id integer primary key, name text not null unique)`.execute(db);
    await sql`create table notes (id integer primary key, text text not null)`.execute(db);
    await fn(db);
  });
}

for (const engine of ENGINES) {
  describe(`unit of work [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    test('the stores built on the unit commit together, and read their own writes first', async () => {
      await withTables(engine.name, async (db) => {
        const unit = unitOfWorkOn(db, (trx) => storesOn(trx));
        const seen = await unit(async ({ things, notes }) => {
          await things.add(1, 'one');
          await notes.add(1, 'about one');
          return { names: await things.names(), texts: await notes.texts() };
        });
        assert.deepEqual(seen, { names: ['one'], texts: ['about one', 'while adding one'] });
        const after = storesOn(db);
        assert.deepEqual(await after.things.names(), ['one']);
        assert.deepEqual(await after.notes.texts(), ['about one', 'while adding one']);
      });
    });

    test('a throw rolls every store back and reaches the caller; tasks after commit run only when it commits', async () => {
      await withTables(engine.name, async (db) => {
        const ran: string[] = [];
        const unit = unitOfWorkOn(db, (trx, afterCommit) => ({ ...storesOn(trx), afterCommit }));
        await assert.rejects(
          unit(async ({ things, notes, afterCommit }) => {
            await things.add(1, 'one');
            await notes.add(1, 'about one');
            afterCommit(() => ran.push('rolled back'));
            throw new Error('the outbox is failing');
          }),
          /the outbox is failing/,
        );
        assert.deepEqual(await storesOn(db).things.names(), []);
        assert.deepEqual(await storesOn(db).notes.texts(), []);
        await unit(async ({ things, afterCommit }) => {
          afterCommit(() => ran.push('committed'));
          await things.add(2, 'two');
          assert.deepEqual(ran, [], 'not before the commit');
        });
        assert.deepEqual(ran, ['committed']);
      });
    });

    test("a store's own transaction in a unit is a savepoint: a failure the caller catches undoes only it", async () => {
      await withTables(engine.name, async (db) => {
        const unit = unitOfWorkOn(db, (trx) => storesOn(trx));
        await unit(async ({ things, notes }) => {
          await things.add(1, 'one');
          // The unique name refuses the second statement of the store's transaction: its first
          // (a note) goes with it, and the unit goes on (PostgreSQL would refuse every later
          // statement of a transaction that failed without a savepoint).
          await assert.rejects(things.add(2, 'one'));
          await things.add(3, 'three');
          await notes.add(1, 'after the failure');
        });
        const after = storesOn(db);
        assert.deepEqual(await after.things.names(), ['one', 'three']);
        assert.deepEqual(await after.notes.texts(), ['after the failure', 'while adding one', 'while adding three']);
      });
    });

    test("outside a unit a store's transaction is its own: all or nothing", async () => {
      await withTables(engine.name, async (db) => {
        const { things, notes } = storesOn(db);
        await things.add(1, 'one');
        await assert.rejects(things.add(2, 'one'));
        assert.deepEqual(await things.names(), ['one']);
        assert.deepEqual(await notes.texts(), ['while adding one']);
      });
    });

    if (engine.name === 'postgres') {
      test('two units at once do not see each other before they commit', async () => {
        await withTables(engine.name, async (db) => {
          const unit = unitOfWorkOn(db, (trx) => storesOn(trx));
          let release!: () => void;
          const held = new Promise<void>((resolve) => (release = resolve));
          let wrote!: () => void;
          const written = new Promise<void>((resolve) => (wrote = resolve));
          const a = unit(async ({ things }) => {
            await things.add(1, 'one');
            wrote();
            await held;
          });
          await written;
          const seen = await unit(({ things }) => things.names());
          assert.deepEqual(seen, [], "the other unit's write is not committed yet");
          release();
          await a;
          assert.deepEqual(await storesOn(db).things.names(), ['one']);
        });
      });
    }
  });
}
