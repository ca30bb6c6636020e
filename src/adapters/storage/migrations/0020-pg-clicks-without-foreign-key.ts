import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/**
 * PostgreSQL: click rows without a foreign key to links (docs/adr/0041). Its check ran a query
 * and took a row lock for every click inserted, about half of what inserting a batch of click
 * rows cost PostgreSQL, while the click writer already keeps the batch's links from deletion
 * in the same transaction (`keepLinks`, FOR KEY SHARE) and leaves out the clicks of links gone.
 * What the foreign key still did, deleting a link's rows with it, a statement trigger does: a
 * link deleted directly, or through its account or domain, takes its click rows at once, as
 * before. SQLite has had no foreign key there since migration 0004.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  const { rows } = await sql<{ name: string }>`select conname as name from pg_constraint
    where conrelid = 'clicks'::regclass and confrelid = 'links'::regclass and contype = 'f'`.execute(db);
  for (const { name } of rows) await sql`alter table clicks drop constraint ${sql.id(name)}`.execute(db);
  await sql`create function clicks_of_deleted_links() returns trigger language plpgsql as $$
    begin
      delete from clicks c using deleted d where c.link_id = d.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger links_deleted_clicks after delete on links
    referencing old table as deleted for each statement execute function clicks_of_deleted_links()`.execute(db);
}

export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`drop trigger if exists links_deleted_clicks on links`.execute(db);
  await sql`drop function if exists clicks_of_deleted_links()`.execute(db);
  await sql`delete from clicks c where not exists (select 1 from links l where l.id = c.link_id)`.execute(db);
  await sql`alter table clicks add constraint clicks_link_id_fkey foreign key (link_id) references links (id) on delete cascade`.execute(db);
}
