import { sql, type Kysely, type CreateTableBuilder } from 'kysely';
import type { Engine } from '../connect.ts';

/** The dialect differences of the schema, in one place. */
export function columnTypes(engine: Engine) {
  return {
    id: engine === 'postgres' ? ('serial' as const) : ('integer' as const),
    bigint: engine === 'postgres' ? ('bigint' as const) : ('integer' as const),
  };
}

type Db = Kysely<unknown>;

function withId<T extends string>(t: CreateTableBuilder<T, never>, engine: Engine) {
  return engine === 'postgres'
    ? t.addColumn('id', 'serial', (c) => c.primaryKey())
    : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export async function up(db: Db, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);

  await withId(db.schema.createTable('accounts'), engine)
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('email', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('timezone', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('api_keys'), engine)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)')
    .addColumn('prefix', 'varchar(16)', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('last_used_at', bigint)
    .addColumn('revoked_at', bigint)
    .execute();
  await db.schema.createIndex('api_keys_account').on('api_keys').columns(['account_id', 'id']).execute();

  await withId(db.schema.createTable('spaces'), engine)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'varchar(32)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(32)', (c) => c.notNull())
    .addColumn('color', 'integer', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('updated_at', bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('spaces_name').unique().on('spaces').columns(['account_id', 'name_key']).execute();
  await db.schema.createIndex('spaces_account').on('spaces').columns(['account_id', 'id']).execute();

  await withId(db.schema.createTable('domains'), engine)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'varchar(253)', (c) => c.notNull().unique())
    .addColumn('index_page', 'varchar(2048)')
    .addColumn('not_found_page', 'varchar(2048)')
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('updated_at', bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('domains_account').on('domains').columns(['account_id', 'id']).execute();

  await withId(db.schema.createTable('pixels'), engine)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'varchar(32)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(32)', (c) => c.notNull())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('value', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('updated_at', bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pixels_name').unique().on('pixels').columns(['account_id', 'name_key']).execute();
  await db.schema.createIndex('pixels_account').on('pixels').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('pixels_account_type').on('pixels').columns(['account_id', 'type', 'id']).execute();

  await createLinks(db, engine);
}

async function createLinks(db: Db, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  await withId(db.schema.createTable('links'), engine)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('domain_id', 'integer', (c) => c.references('domains.id').onDelete('cascade'))
    .addColumn('space_id', 'integer', (c) => c.references('spaces.id').onDelete('set null'))
    .addColumn('alias', 'varchar(255)', (c) => c.notNull())
    .addColumn('alias_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)')
    .addColumn('target_type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('country_target', 'text')
    .addColumn('platform_target', 'text')
    .addColumn('language_target', 'text')
    .addColumn('rotation_target', 'text')
    .addColumn('last_rotation', bigint, (c) => c.notNull().defaultTo(0))
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('privacy', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('privacy_password_hash', 'varchar(255)')
    .addColumn('password_hash', 'varchar(255)')
    .addColumn('expiration_url', 'varchar(2048)')
    .addColumn('expiration_clicks', bigint)
    .addColumn('ends_at', bigint)
    .addColumn('clicks', bigint, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('updated_at', bigint, (c) => c.notNull())
    .execute();
  // Aliases are unique per domain; NULL (the default domain) needs its own partial index.
  await db.schema
    .createIndex('links_alias_domain')
    .unique()
    .on('links')
    .columns(['domain_id', 'alias_key'])
    .where(sql.ref('domain_id'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('links_alias_default')
    .unique()
    .on('links')
    .column('alias_key')
    .where(sql.ref('domain_id'), 'is', null)
    .execute();
  // One index per list filter and sort, each ending in id so pages come straight off it.
  for (const [name, columns] of [
    ['links_account', ['account_id', 'id']],
    ['links_account_clicks', ['account_id', 'clicks', 'id']],
    ['links_account_space', ['account_id', 'space_id', 'id']],
    ['links_account_domain', ['account_id', 'domain_id', 'id']],
    ['links_account_disabled', ['account_id', 'disabled', 'id']],
    // Covers the status partition (api.md §5): counting active or expired links reads the index only.
    ['links_account_status', ['account_id', 'disabled', 'ends_at', 'expiration_clicks', 'clicks']],
    ['links_account_ends', ['account_id', 'ends_at']],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on('links')
      .columns([...columns])
      .execute();
  }

  await db.schema
    .createTable('link_pixels')
    .addColumn('link_id', 'integer', (c) => c.notNull().references('links.id').onDelete('cascade'))
    .addColumn('pixel_id', 'integer', (c) => c.notNull().references('pixels.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('link_pixels_pk', ['link_id', 'pixel_id'])
    .execute();
  await db.schema.createIndex('link_pixels_pixel').on('link_pixels').columns(['pixel_id', 'link_id']).execute();
}

/** @public Kysely's Migrator calls it, through the module object in index.ts, to migrate down. */
export async function down(db: Db): Promise<void> {
  for (const table of ['link_pixels', 'links', 'pixels', 'domains', 'spaces', 'api_keys', 'accounts']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
