import { sql, type Kysely } from 'kysely';

/**
 * Whether a link's `link.expired` has been told (docs/design/webhooks.md): set by the instance that claims
 * the link once it has expired, reset when an update opens the link again. Links already expired
 * when this runs count as told, so the first sweep does not announce old news. Two partial
 * indexes keep each sweep to the links that may be due: by date, and those with a click cap.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('links')
    .addColumn('expiry_told', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  const now = Date.now();
  await sql`update links set expiry_told = 1
    where (ends_at is not null and ends_at <= ${now}) or (expiration_clicks is not null and expiration_clicks > 0 and clicks >= expiration_clicks)`.execute(
    db,
  );
  await sql`create index links_expiry_by_date on links (ends_at) where expiry_told = 0 and ends_at is not null`.execute(
    db,
  );
  await sql`create index links_expiry_by_cap on links (id) where expiry_told = 0 and expiration_clicks > 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('links_expiry_by_cap').execute();
  await db.schema.dropIndex('links_expiry_by_date').execute();
  await db.schema.alterTable('links').dropColumn('expiry_told').execute();
}
