import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/**
 * An account's clicks per day (the dashboard's chart and totals, the operator's recent clicks),
 * kept as the rollups are written instead of summed from them on every read: the sum read one
 * `total` row per link and day clicked in the range, tens of thousands for a big account.
 *
 * Triggers keep it, so both click writers (the SQLite writer thread, the PostgreSQL store) and
 * anything else that writes rollups agree with it without a line of their own. They add the
 * `total` rows' increments only. A link's deletion leaves its clicks in its account's days:
 * they happened, and the account's history says so (docs/design/statistics.md).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') {
    await atOnce(db, engine, async (trx) => {
      await sql`create table account_click_days (
        account_id integer not null references accounts (id) on delete cascade,
        day varchar(10) collate "C" not null,
        count bigint not null,
        primary key (account_id, day) include (count))`.execute(trx);
      // One statement-level trigger per event (transition tables allow no more): the rows of a
      // batch are summed by account and day and written in key order, so two instances'
      // writers take the rows' locks in the same order and cannot deadlock on them.
      await sql`create function account_click_days_add() returns trigger language plpgsql as $$
        begin
          if tg_op = 'INSERT' then
            insert into account_click_days (account_id, day, count)
              select l.account_id, n.day, sum(n.count) from added n join links l on l.id = n.link_id
              where n.dimension = 'total' group by 1, 2 order by 1, 2
              on conflict (account_id, day) do update set count = account_click_days.count + excluded.count;
          else
            insert into account_click_days (account_id, day, count)
              select l.account_id, n.day, sum(n.count - o.count) from added n
                join removed o on o.link_id = n.link_id and o.dimension = n.dimension and o.day = n.day and o.value = n.value
                join links l on l.id = n.link_id
              where n.dimension = 'total' group by 1, 2 order by 1, 2
              on conflict (account_id, day) do update set count = account_click_days.count + excluded.count;
          end if;
          return null;
        end $$`.execute(trx);
      await sql`create trigger click_rollups_account_days_insert after insert on click_rollups
        referencing new table as added for each statement execute function account_click_days_add()`.execute(trx);
      await sql`create trigger click_rollups_account_days_update after update on click_rollups
        referencing old table as removed new table as added for each statement execute function account_click_days_add()`.execute(
        trx,
      );
      await backfill(trx);
    });
    return;
  }
  // SQLite writes one transaction at a time: row triggers are enough.
  await atOnce(db, engine, async (trx) => {
    await sql`create table account_click_days (
      account_id integer not null references accounts (id) on delete cascade,
      day varchar(10) not null,
      count bigint not null,
      primary key (account_id, day)) without rowid`.execute(trx);
    await sql`create trigger click_rollups_account_days_insert after insert on click_rollups when new.dimension = 'total' begin
      insert into account_click_days (account_id, day, count) select account_id, new.day, new.count from links where id = new.link_id
      on conflict (account_id, day) do update set count = count + excluded.count; end`.execute(trx);
    await sql`create trigger click_rollups_account_days_update after update of count on click_rollups when new.dimension = 'total' begin
      insert into account_click_days (account_id, day, count) select account_id, new.day, new.count - old.count from links where id = new.link_id
      on conflict (account_id, day) do update set count = count + excluded.count; end`.execute(trx);
    await backfill(trx);
  });
}

/**
 * The table, its triggers and its rows come together or not at all. Kysely's migrator runs a
 * PostgreSQL migration in a transaction of its own (which cannot be nested), a SQLite one outside.
 */
function atOnce(db: Kysely<unknown>, engine: Engine, steps: (trx: Kysely<unknown>) => Promise<void>): Promise<void> {
  return engine === 'postgres' ? steps(db) : db.transaction().execute(steps);
}

async function backfill(trx: Kysely<unknown>): Promise<void> {
  await sql`insert into account_click_days (account_id, day, count)
    select l.account_id, r.day, sum(r.count) from click_rollups r join links l on l.id = r.link_id
    where r.dimension = 'total' group by l.account_id, r.day`.execute(trx);
}

export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await atOnce(db, engine, async (trx) => {
    await sql`drop trigger if exists click_rollups_account_days_insert ${engine === 'postgres' ? sql`on click_rollups` : sql``}`.execute(
      trx,
    );
    await sql`drop trigger if exists click_rollups_account_days_update ${engine === 'postgres' ? sql`on click_rollups` : sql``}`.execute(
      trx,
    );
    if (engine === 'postgres') await sql`drop function if exists account_click_days_add()`.execute(trx);
    await sql`drop table if exists account_click_days`.execute(trx);
  });
}
