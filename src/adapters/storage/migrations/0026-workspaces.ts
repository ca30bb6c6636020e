import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * Teams (docs/design/teams.md). Every `accounts` row becomes a workspace: a personal one keeps its
 * account's id, so every `account_id` already points at the right workspace and no id, key or
 * session changes. A person is a `users` row whose id is their personal workspace's id; members
 * hold one role per workspace. Keys and sessions name their user; keys gain scopes (JSON text,
 * null for all the role allows) and an expiry. Invitations keep only their token's digest.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { id, bigint } = columnTypes(engine);
  await db.schema
    .alterTable('accounts')
    .addColumn('personal', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('accounts')
    .addColumn('require_2fa', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', bigint, (c) => c.notNull())
    .execute();
  await sql`insert into users (id, created_at) select id, created_at from accounts`.execute(db);

  await db.schema
    .createTable('memberships')
    .addColumn('workspace_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('memberships_pk', ['workspace_id', 'user_id'])
    .execute();
  await db.schema.createIndex('memberships_user').on('memberships').columns(['user_id', 'workspace_id']).execute();
  await sql`insert into memberships (workspace_id, user_id, role, created_at) select id, id, 'owner', created_at from accounts`.execute(
    db,
  );

  // Added nullable (SQLite adds no NOT NULL column without a default), filled at once; every
  // writer sets it from now on.
  await db.schema
    .alterTable('api_keys')
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .execute();
  await db.schema.alterTable('api_keys').addColumn('scopes', 'text').execute();
  await db.schema.alterTable('api_keys').addColumn('expires_at', bigint).execute();
  await sql`update api_keys set user_id = account_id`.execute(db);
  await db.schema.createIndex('api_keys_user').on('api_keys').columns(['user_id', 'id']).execute();

  await db.schema
    .alterTable('sessions')
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .execute();
  await sql`update sessions set user_id = account_id`.execute(db);

  const invitations = db.schema.createTable('invitations');
  await (
    engine === 'postgres'
      ? invitations.addColumn('id', id, (c) => c.primaryKey())
      : invitations.addColumn('id', id, (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('workspace_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('email', 'varchar(255)', (c) => c.notNull())
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('invited_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('expires_at', bigint, (c) => c.notNull())
    .addColumn('accepted_at', bigint)
    .addColumn('revoked_at', bigint)
    .execute();
  await db.schema.createIndex('invitations_workspace').on('invitations').columns(['workspace_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('invitations').ifExists().execute();
  await db.schema.dropIndex('api_keys_user').ifExists().execute();
  await db.schema.alterTable('sessions').dropColumn('user_id').execute();
  for (const column of ['expires_at', 'scopes', 'user_id'])
    await db.schema.alterTable('api_keys').dropColumn(column).execute();
  await db.schema.dropTable('memberships').ifExists().execute();
  await db.schema.dropTable('users').ifExists().execute();
  for (const column of ['require_2fa', 'personal']) await db.schema.alterTable('accounts').dropColumn(column).execute();
}
