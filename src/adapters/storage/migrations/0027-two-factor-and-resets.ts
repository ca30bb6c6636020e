import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * Two-factor sign-in and password reset by email (docs/design/teams.md). Every table is keyed by the
 * person (today the account's id; the users of issue 33 keep that id), never a column on
 * accounts or sessions: a person's second factor is theirs, not a workspace's.
 *
 * user_totp: the TOTP secret, encrypted (secret_box), unconfirmed until a first code proves the
 * enrolment; last_step is the newest time step accepted, so a code is accepted once.
 * user_recovery_codes: digests of the single-use recovery codes.
 * sign_in_challenges: the half-signed-in state between the password and the code; not a session.
 * password_resets: digests of the reset links' tokens, each used once and for an hour.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  const serialId = (table: CreateTableBuilder<string, never>) =>
    engine === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

  await db.schema
    .createTable('user_totp')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('secret_box', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('confirmed_at', bigint)
    .addColumn('last_step', bigint)
    .execute();

  await serialId(db.schema.createTable('user_recovery_codes'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_at', bigint)
    .addUniqueConstraint('user_recovery_codes_user_hash', ['user_id', 'code_hash'])
    .execute();

  await serialId(db.schema.createTable('sign_in_challenges'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('remember', 'integer', (c) => c.notNull())
    .addColumn('expires_at', bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_challenges_user').on('sign_in_challenges').column('user_id').execute();

  await serialId(db.schema.createTable('password_resets'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('expires_at', bigint, (c) => c.notNull())
    .addColumn('used_at', bigint)
    .execute();
  await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['password_resets', 'sign_in_challenges', 'user_recovery_codes', 'user_totp'])
    await db.schema.dropTable(table).ifExists().execute();
}
