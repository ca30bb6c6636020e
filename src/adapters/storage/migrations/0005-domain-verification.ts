import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * Custom domains prove control before they serve (docs/design/domains.md).
 * A name is no longer unique across the service: several accounts may hold it pending, and
 * only a verified row is unique (a partial index). Every domain that exists already was
 * serving: it becomes verified, so nothing stops answering. Each row gets its own token.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  if (engine === 'sqlite') await rebuildSqlite(db, true);
  else {
    await sql`alter table domains drop constraint if exists domains_name_key`.execute(db);
    await sql`alter table domains add column verification_token varchar(64)`.execute(db);
    await sql`alter table domains add column verified_at bigint`.execute(db);
    await fillTokens(db);
    await sql`alter table domains alter column verification_token set not null`.execute(db);
  }
  await sql`update domains set verified_at = updated_at where verified_at is null`.execute(db);
  await db.schema
    .createIndex('domains_name_verified')
    .unique()
    .on('domains')
    .column('name')
    .where(sql.ref('verified_at'), 'is not', null)
    .execute();
  await db.schema.createIndex('domains_account_name').unique().on('domains').columns(['account_id', 'name']).execute();
  await db.schema.createIndex('domains_name').on('domains').columns(['name', 'id']).execute();

  await db.schema
    .createTable('reserved_domains')
    .addColumn('name', 'varchar(253)', (c) => c.primaryKey())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema.dropTable('reserved_domains').ifExists().execute();
  // Back to one row per name: the verified claim of each name stays, pending ones go (with their links).
  await sql`delete from domains where verified_at is null`.execute(db);
  for (const index of ['domains_name', 'domains_account_name', 'domains_name_verified']) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  if (engine === 'sqlite') await rebuildSqlite(db, false);
  else {
    await sql`alter table domains drop column verification_token`.execute(db);
    await sql`alter table domains drop column verified_at`.execute(db);
    await sql`alter table domains add constraint domains_name_key unique (name)`.execute(db);
  }
}

async function fillTokens(db: Kysely<unknown>): Promise<void> {
  const rows = await sql<{ id: number }>`select id from domains where verification_token is null`.execute(db);
  for (const { id } of rows.rows) {
    await sql`update domains set verification_token = ${newToken()} where id = ${id}`.execute(db);
  }
}

const newToken = () => randomBytes(18).toString('base64url');

/**
 * SQLite cannot drop a column's UNIQUE constraint: the table is copied into a new one (SQLite's
 * own recipe). Foreign keys are off meanwhile, or dropping the old table would delete every
 * link on a domain through links.domain_id's cascade.
 */
async function rebuildSqlite(db: Kysely<unknown>, verifying: boolean): Promise<void> {
  const { bigint } = columnTypes('sqlite');
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      let table = trx.schema
        .createTable('domains_rebuilt')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'varchar(253)', (c) => (verifying ? c.notNull() : c.notNull().unique()))
        .addColumn('index_page', 'varchar(2048)')
        .addColumn('not_found_page', 'varchar(2048)')
        .addColumn('created_at', bigint, (c) => c.notNull())
        .addColumn('updated_at', bigint, (c) => c.notNull());
      if (verifying) {
        table = table
          .addColumn('verification_token', 'varchar(64)', (c) => c.notNull().defaultTo(''))
          .addColumn('verified_at', bigint);
      }
      await table.execute();
      const columns = sql`id, account_id, name, index_page, not_found_page, created_at, updated_at`;
      await sql`insert into domains_rebuilt (${columns}) select ${columns} from domains`.execute(trx);
      if (verifying) await fillTokensSqlite(trx);
      // A deleted domain's id is never given again: the sequence goes along.
      await sql`delete from sqlite_sequence where name = 'domains_rebuilt'`.execute(trx);
      await sql`insert into sqlite_sequence (name, seq) select 'domains_rebuilt', seq from sqlite_sequence where name = 'domains'`.execute(
        trx,
      );
      await sql`drop table domains`.execute(trx);
      await sql`alter table domains_rebuilt rename to domains`.execute(trx);
      await trx.schema.createIndex('domains_account').on('domains').columns(['account_id', 'id']).execute();
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

async function fillTokensSqlite(db: Kysely<unknown>): Promise<void> {
  const rows = await sql<{ id: number }>`select id from domains_rebuilt`.execute(db);
  for (const { id } of rows.rows) {
    await sql`update domains_rebuilt set verification_token = ${newToken()} where id = ${id}`.execute(db);
  }
}
