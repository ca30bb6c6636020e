import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/**
 * PostgreSQL: `clicks` partitioned by month of `at`, with only the indexes its reads use, and no
 * foreign key to links (docs/design/clicks.md). Each click row's key check on links cost its insert
 * about as much as the row itself: the writer already holds its links (keepLinks, FOR KEY
 * SHARE) in the transaction that writes their rows, and a statement trigger on links deletes a
 * deleted link's rows, as the cascade did. `clicks_at` served only retention, which now drops
 * whole months and deletes by `at` within one. The existing rows move to their months' tables;
 * a row of no month yet made (none after this) would go to `clicks_default`. SQLite: unchanged.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`alter table clicks rename to clicks_unpartitioned`.execute(db);
  await sql`alter index clicks_pkey rename to clicks_unpartitioned_pkey`.execute(db);
  await sql`drop index clicks_link_at`.execute(db);
  await sql`drop index if exists clicks_at`.execute(db);
  await sql`create table clicks (
    id bigint not null default nextval('clicks_id_seq'), link_id integer not null, account_id integer not null, at bigint not null,
    country varchar(2), city varchar(128), browser varchar(64), platform varchar(32), device varchar(32), language varchar(16),
    referrer_host varchar(255), is_bot integer not null default 0, rule integer, variant integer) partition by range (at)`.execute(
    db,
  );
  await sql`alter sequence clicks_id_seq owned by clicks.id`.execute(db);
  await sql`create index clicks_link_at on clicks (link_id, at)`.execute(db);
  await sql`create index clicks_id on clicks (id)`.execute(db);
  await sql`create table clicks_default partition of clicks default`.execute(db);
  // Every month that has rows, and this month and the next.
  const { rows } = await sql<{ month: string }>`
    select distinct to_char(to_timestamp(at / 1000.0) at time zone 'UTC', 'YYYY-MM') as month from clicks_unpartitioned
    union select to_char(now() at time zone 'UTC', 'YYYY-MM') union select to_char((now() + interval '1 month') at time zone 'UTC', 'YYYY-MM')
    order by 1`.execute(db);
  for (const { month } of rows) {
    const [year, m] = month.split('-').map(Number) as [number, number];
    const from = Date.UTC(year, m - 1, 1);
    const to = Date.UTC(year, m, 1);
    const name = sql.id(`clicks_m${month.replace('-', '')}`);
    await sql`create table ${name} partition of clicks for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(
      db,
    );
  }
  await sql`insert into clicks select id, link_id, account_id, at, country, city, browser, platform, device, language, referrer_host, is_bot, rule, variant
    from clicks_unpartitioned`.execute(db);
  await sql`drop table clicks_unpartitioned`.execute(db);
  await sql`create function clicks_of_deleted_links() returns trigger language plpgsql as $$
    begin
      delete from clicks where link_id in (select id from gone);
      return null;
    end $$`.execute(db);
  await sql`create trigger links_deleted_clicks after delete on links
    referencing old table as gone for each statement execute function clicks_of_deleted_links()`.execute(db);
}

export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`drop trigger links_deleted_clicks on links`.execute(db);
  await sql`drop function clicks_of_deleted_links()`.execute(db);
  await sql`alter table clicks rename to clicks_partitioned`.execute(db);
  await sql`alter index clicks_link_at rename to clicks_partitioned_link_at`.execute(db);
  await sql`create table clicks (
    id bigint primary key default nextval('clicks_id_seq'), link_id integer not null references links (id) on delete cascade,
    account_id integer not null, at bigint not null, country varchar(2), city varchar(128), browser varchar(64), platform varchar(32),
    device varchar(32), language varchar(16), referrer_host varchar(255), is_bot integer not null default 0, rule integer, variant integer)`.execute(
    db,
  );
  await sql`alter sequence clicks_id_seq owned by clicks.id`.execute(db);
  // Rows of links already gone cannot point at them under the key: they are left behind.
  await sql`insert into clicks select id, link_id, account_id, at, country, city, browser, platform, device, language, referrer_host, is_bot, rule, variant
    from clicks_partitioned where link_id in (select id from links)`.execute(db);
  await sql`drop table clicks_partitioned`.execute(db);
  await sql`create index clicks_link_at on clicks (link_id, at)`.execute(db);
  await sql`create index clicks_at on clicks (at)`.execute(db);
}
