import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Runs `fn` in a fresh PostgreSQL schema of TEST_DATABASE_URL, dropped afterwards unless `keep`
 * (then its name is printed, for a later run or EXPLAIN in psql); says so when unset.
 */
export async function inFreshPgSchema(
  fn: (url: string, schema: string) => Promise<void>,
  options: { keep?: boolean } = {},
): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    console.log('\nPostgreSQL: skipped (TEST_DATABASE_URL not set)');
    return;
  }
  const schema = `lp_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  try {
    await fn(url, schema);
  } finally {
    if (options.keep) console.log(`PostgreSQL schema kept: ${schema}`);
    else await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
}
