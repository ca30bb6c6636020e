import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { connect, type Storage } from '../../../src/adapters/storage/connect.ts';
import { migrateToLatest } from '../../../src/adapters/storage/migrations/index.ts';
import { testDatabaseUrl } from '../../support/test-database-url.ts';

/** A migrated database for the in-process click writer: SQLite in memory, or a fresh schema of TEST_DATABASE_URL. */
export interface ClickDb {
  /** A second connection pool to the same database (PostgreSQL only: an in-memory SQLite has one). */
  open(): Storage;
  storage: Storage;
  accountId: number;
  /** Adds `count` links to the account; answers their ids in order. */
  links(count: number): Promise<number[]>;
  /** Gives these links a click cap no test reaches: their counters are then written with the rows, not the window. */
  cap(ids: readonly number[]): Promise<void>;
  close(): Promise<void>;
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function openClickDb(engine: 'sqlite' | 'postgres'): Promise<ClickDb> {
  const url = engine === 'postgres' ? testDatabaseUrl() : 'sqlite::memory:';
  const schema = engine === 'postgres' ? `lp_test_${process.pid}_${randomBytes(4).toString('hex')}` : undefined;
  if (schema) await admin(url, `create schema ${schema}`);
  const pools: Storage[] = [];
  const open = () => {
    if (!schema && pools.length > 0) throw new Error('an in-memory SQLite database has one connection');
    const storage = connect(url, { schema, poolSize: 2 });
    pools.push(storage);
    return storage;
  };
  const storage = open();
  await migrateToLatest(storage.db, engine);
  const now = Date.now();
  const { id: accountId } = await storage.db
    .insertInto('accounts')
    .values({ name: 'clicks', email: 'clicks@example.com', timezone: 'UTC', created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  let made = 0;
  return {
    open,
    storage,
    accountId,
    links: async (count) => {
      const from = made + 1;
      made += count;
      // Through a recursive CTE, as both engines have one; thousands of links in one statement.
      await sql`
        with recursive s(n) as (select ${sql.lit(from)} union all select n + 1 from s where n < ${sql.lit(made)})
        insert into links (account_id, alias, alias_key, url, target_type, disabled, privacy, clicks, created_at, updated_at)
        select ${sql.lit(accountId)}, 'w' || n, 'w' || n, 'https://example.com/', 0, 0, 0, 0, ${sql.lit(now)}, ${sql.lit(now)} from s`.execute(
        storage.db,
      );
      const rows = await storage.db
        .selectFrom('links')
        .select('id')
        .where(
          'alias',
          'in',
          Array.from({ length: count }, (_, i) => `w${from + i}`),
        )
        .orderBy('id')
        .execute();
      return rows.map((r) => r.id);
    },
    cap: async (ids) => {
      await storage.db.updateTable('links').set({ expiration_clicks: 1_000_000 }).where('id', 'in', ids).execute();
    },
    close: async () => {
      for (const p of pools) await p.close();
      if (schema) await admin(url, `drop schema if exists ${schema} cascade`);
    },
  };
}
