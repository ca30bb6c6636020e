import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * Sign-ups that verify their email (EMAIL_VERIFICATION=required, docs/design/teams.md), keyed by the
 * person like the tables of 0027. unverified_emails: a row while the person has not opened their
 * link (no row: verified, as every account made before this migration is).
 * email_verifications: digests of the links' tokens, each used once and for 24 hours.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  await db.schema
    .createTable('unverified_emails')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('since', bigint, (c) => c.notNull())
    .execute();
  const table = db.schema.createTable('email_verifications');
  await (
    engine === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('expires_at', bigint, (c) => c.notNull())
    .addColumn('used_at', bigint)
    .execute();
  await db.schema.createIndex('email_verifications_user').on('email_verifications').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['email_verifications', 'unverified_emails'])
    await db.schema.dropTable(table).ifExists().execute();
}
