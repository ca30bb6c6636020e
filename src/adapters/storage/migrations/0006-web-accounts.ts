import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * People sign in to the web app: an account may hold a password (argon2id; accounts made by the
 * CLI have none until one is set), may be an operator, and may be suspended. A session is an
 * opaque token in a cookie; only its digest is stored, so any instance serves any page and a
 * copy of the table signs no one in.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  await db.schema.alterTable('accounts').addColumn('password_hash', 'varchar(255)').execute();
  await db.schema
    .alterTable('accounts')
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('accounts').addColumn('suspended_at', bigint).execute();
  // An install that already has accounts gets its operator as a new one would: the first account.
  await sql`update accounts set is_admin = 1 where id = (select min(id) from accounts)`.execute(db);

  const table = db.schema.createTable('sessions');
  await (
    engine === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('last_seen_at', bigint, (c) => c.notNull())
    .addColumn('expires_at', bigint, (c) => c.notNull())
    .addColumn('user_agent', 'varchar(255)')
    .addColumn('address', 'varchar(64)')
    .execute();
  await db.schema.createIndex('sessions_account').on('sessions').columns(['account_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sessions').ifExists().execute();
  for (const column of ['suspended_at', 'is_admin', 'password_hash'])
    await db.schema.alterTable('accounts').dropColumn(column).execute();
}
