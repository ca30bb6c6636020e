import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/**
 * PostgreSQL: the daily rollups of the days still getting clicks live in a table of their own,
 * `click_rollups_recent`, whose indexes leave `count` out and whose pages keep half their room
 * free, so that the click writer's `count = count + n` is a HOT update: no index entry written,
 * where each update of `click_rollups` wrote one in both of its indexes. The settled days stay in
 * the former table, `click_rollups_settled`, whose indexes carry `count` so that reads of them
 * need no table page. `click_rollups` is now the view of both (reads sum their rows by key, so a
 * day in both tables adds up); rows move from recent to settled once their day is settled
 * (SqlRollupMonths). An insert into the view lands in the settled table (fixtures, imports).
 * SQLite: unchanged (docs/design/clicks.md).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`alter table click_rollups rename to click_rollups_settled`.execute(db);
  await sql`create table click_rollups_recent (
    link_id integer not null references links (id) on delete cascade,
    dimension varchar(16) collate "C" not null,
    day varchar(10) collate "C" not null,
    value varchar(255) collate "C" not null,
    count bigint not null,
    constraint click_rollups_recent_pk primary key (link_id, dimension, day, value)) with (fillfactor = 50)`.execute(
    db,
  );
  await sql`create index click_rollups_recent_total_day on click_rollups_recent (day, link_id) where dimension = 'total'`.execute(
    db,
  );
  await sql`create view click_rollups as
    select link_id, dimension, day, value, count from click_rollups_settled
    union all
    select link_id, dimension, day, value, count from click_rollups_recent`.execute(db);
  await sql`create function click_rollups_insert() returns trigger language plpgsql as $$
    begin
      insert into click_rollups_settled (link_id, dimension, day, value, count) values (new.link_id, new.dimension, new.day, new.value, new.count)
        on conflict (link_id, dimension, day, value) do update set count = click_rollups_settled.count + excluded.count;
      return new;
    end $$`.execute(db);
  await sql`create trigger click_rollups_insert instead of insert on click_rollups for each row execute function click_rollups_insert()`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`drop view click_rollups`.execute(db);
  await sql`drop function click_rollups_insert()`.execute(db);
  await sql`insert into click_rollups_settled (link_id, dimension, day, value, count)
    select link_id, dimension, day, value, count from click_rollups_recent order by link_id, dimension, day, value
    on conflict (link_id, dimension, day, value) do update set count = click_rollups_settled.count + excluded.count`.execute(
    db,
  );
  await sql`drop table click_rollups_recent`.execute(db);
  await sql`alter table click_rollups_settled rename to click_rollups`.execute(db);
}
