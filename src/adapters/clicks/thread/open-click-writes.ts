import { sql } from 'kysely';
import { connect, openSqlite, sqlitePath } from '../../storage/connect.ts';
import type { ClickWrites } from '../writer/click-writes.ts';
import { PgClickWrites } from '../postgres/pg-click-writes.ts';
import { SqliteClickWrites } from '../sqlite/sqlite-click-writes.ts';
import type { WriterData } from './worker-messages.ts';

/**
 * The writes of the writer thread's engine, on a connection of their own. PostgreSQL's pool
 * makes its first connection now, so the first batch need not wait for it; a database that is
 * away does not hold the thread's start (the writer keeps the clicks meanwhile).
 */
export async function openClickWrites(data: WriterData): Promise<ClickWrites> {
  if (data.engine === 'sqlite')
    return new SqliteClickWrites(openSqlite(sqlitePath(data.databaseUrl)), { owner: data.owner });
  // One connection: the writer's writes never overlap. The main thread's pool tells of the
  // database's outages; this one's would say the same again.
  const storage = connect(data.databaseUrl, { schema: data.schema, poolSize: 1, outageLog: () => {} });
  await sql`select 1`.execute(storage.db).catch(() => undefined);
  return new PgClickWrites(storage.db, { owner: data.owner, close: () => storage.close() });
}
