/**
 * TEST_DATABASE_URL, for a suite that runs on PostgreSQL. Without it no PostgreSQL suite should
 * run (each is skipped, saying why: POSTGRES_SKIP in test/support/harness.ts), so a suite that
 * gets here without it lacks its skip: this says so, rather than letting pg connect with libpq's
 * defaults (the machine's own user and database, or none at all).
 */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url)
    throw new Error(
      'TEST_DATABASE_URL is not set, yet a PostgreSQL suite ran: give it { skip: POSTGRES_SKIP } (test/support/harness.ts)',
    );
  return url;
}
