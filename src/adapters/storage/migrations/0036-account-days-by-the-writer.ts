import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/**
 * PostgreSQL: account_click_days is written by the click writer's own statement
 * (pg-click-statements.ts, `addAccountDays`) instead of statement triggers on click_rollups
 * (docs/design/clicks.md). The triggers' transition tables copied every rollup row a window wrote, old
 * and new, and joined them back on the whole key to find the few `total` rows: as much work as
 * the rollup upserts themselves. SQLite keeps its row triggers, which fire for `total` rows only.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`drop trigger click_rollups_account_days_insert on click_rollups`.execute(db);
  await sql`drop trigger click_rollups_account_days_update on click_rollups`.execute(db);
  await sql`drop function account_click_days_add()`.execute(db);
}

export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
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
    end $$`.execute(db);
  await sql`create trigger click_rollups_account_days_insert after insert on click_rollups
    referencing new table as added for each statement execute function account_click_days_add()`.execute(db);
  await sql`create trigger click_rollups_account_days_update after update on click_rollups
    referencing old table as removed new table as added for each statement execute function account_click_days_add()`.execute(
    db,
  );
}
