import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/**
 * SQLite: click rows without an index by link, and so without a foreign key to links
 * (docs/design/clicks.md). Each click batch inserted into (link_id, at)
 * dirtied pages all over that index, which every commit then wrote to the WAL: most of the
 * writer thread's work, for an index that only served ON DELETE CASCADE (no query reads click
 * rows by link; statistics read the rollups). A deleted link's id now goes into deleted_links
 * (a trigger, so cascades from its domain or account count too), and the retention job sweeps
 * its rows (SqlClickRetention). PostgreSQL keeps its index and cascade: nothing changes there.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'sqlite') return;
  // Kysely runs SQLite migrations outside a transaction: a stop between the drop and the
  // rename below would lose every click row.
  await db.transaction().execute(async (trx) => {
    await rebuildClicks(trx, false);
    await sql`create table deleted_links (link_id integer primary key)`.execute(trx);
    await sql`create trigger links_deleted_clicks_to_sweep after delete on links
      begin insert or ignore into deleted_links (link_id) values (old.id); end`.execute(trx);
  });
}

export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'sqlite') return;
  await db.transaction().execute(async (trx) => {
    await sql`drop trigger if exists links_deleted_clicks_to_sweep`.execute(trx);
    await sql`drop table if exists deleted_links`.execute(trx);
    await rebuildClicks(trx, true);
  });
}

/** SQLite cannot add or drop a foreign key in place: the table is copied into a new one. */
async function rebuildClicks(db: Kysely<unknown>, linked: boolean): Promise<void> {
  const linkId = linked
    ? sql`link_id integer not null references links (id) on delete cascade`
    : sql`link_id integer not null`;
  await sql`create table clicks_rebuilt (
    id integer primary key autoincrement, ${linkId}, account_id integer not null, at integer not null,
    country varchar(2), city varchar(128), browser varchar(64), platform varchar(32), device varchar(32),
    language varchar(16), referrer_host varchar(255), is_bot integer not null default 0)`.execute(db);
  const columns = sql`id, link_id, account_id, at, country, city, browser, platform, device, language, referrer_host, is_bot`;
  // Rows of links already gone cannot point at them under a foreign key: they are left behind.
  const from = linked ? sql`from clicks where link_id in (select id from links)` : sql`from clicks`;
  await sql`insert into clicks_rebuilt (${columns}) select ${columns} ${from}`.execute(db);
  await sql`drop table clicks`.execute(db);
  await sql`alter table clicks_rebuilt rename to clicks`.execute(db);
  await sql`create index clicks_at on clicks (at)`.execute(db);
  if (linked) await sql`create index clicks_link_at on clicks (link_id, at)`.execute(db);
}
