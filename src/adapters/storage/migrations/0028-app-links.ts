import type { Kysely } from 'kysely';

/**
 * App deep links (docs/design/rules.md, docs/design/domains.md): a link's ios_url / android_url, and a domain's
 * apple-app-site-association and assetlinks.json as the JSON text it serves. Read with their
 * row, never queried into: text on both engines.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('links').addColumn('ios_url', 'text').execute();
  await db.schema.alterTable('links').addColumn('android_url', 'text').execute();
  await db.schema.alterTable('domains').addColumn('apple_app_site_association', 'text').execute();
  await db.schema.alterTable('domains').addColumn('assetlinks', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('domains').dropColumn('assetlinks').execute();
  await db.schema.alterTable('domains').dropColumn('apple_app_site_association').execute();
  await db.schema.alterTable('links').dropColumn('android_url').execute();
  await db.schema.alterTable('links').dropColumn('ios_url').execute();
}
