import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { connect, type Storage } from '../../src/adapters/storage/connect.ts';
import { testDatabaseUrl } from './test-database-url.ts';

/**
 * Runs `fn` on a database with no tables yet (a SQLite file, or a fresh schema of
 * TEST_DATABASE_URL), so a test can apply migrations one by one; removed afterwards.
 */
export async function withEmptyStorage(
  engine: 'sqlite' | 'postgres',
  fn: (storage: Storage) => Promise<void>,
): Promise<void> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'linkpix-migration-'));
    const storage = connect(`sqlite:${join(dir, 'db.sqlite')}`);
    try {
      await fn(storage);
    } finally {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    }
    return;
  }
  const url = testDatabaseUrl();
  const schema = `lp_migration_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const storage = connect(url, { schema });
  try {
    await fn(storage);
  } finally {
    await storage.close();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
}
