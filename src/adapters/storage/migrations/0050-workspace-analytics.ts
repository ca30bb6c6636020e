import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/**
 * Workspace analytics (docs/design/statistics.md).
 *
 * `clicks.qr`: 1 for a visit that came through a QR code (the code's short URL carries `qr=1`),
 * so that a recovered batch rolls up its `qr` rows as the window does.
 *
 * `account_link_days(account_id, day, link_id, clicks, qr)`: each link's human clicks and QR
 * scans a local day, keyed by the workspace first, so that a workspace's breakdowns read one
 * range of one key (the days of the range) instead of one range per link of the workspace. No
 * key to links: a deleted link's clicks stay, as they do in account_click_days, and no delete
 * has to look for them. SQLite keeps it by row triggers on the `total` and `qr` rollups (as it
 * keeps account_click_days); PostgreSQL's click writer adds to it with the account days.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await sql`alter table clicks add column qr smallint not null default 0`.execute(db);
  if (engine === 'postgres') {
    await sql`create table account_link_days (
      account_id integer not null references accounts (id) on delete cascade,
      day varchar(10) collate "C" not null,
      link_id integer not null,
      clicks bigint not null default 0,
      qr bigint not null default 0,
      primary key (account_id, day, link_id) include (clicks, qr)) with (fillfactor = 70)`.execute(db);
    await backfill(db);
    return;
  }
  await db.transaction().execute(async (trx) => {
    await sql`create table account_link_days (
      account_id integer not null references accounts (id) on delete cascade,
      day varchar(10) not null,
      link_id integer not null,
      clicks bigint not null default 0,
      qr bigint not null default 0,
      primary key (account_id, day, link_id)) without rowid`.execute(trx);
    for (const [event, count] of [
      ['insert', 'new.count'],
      ['update of count', 'new.count - old.count'],
    ] as const) {
      const name = event === 'insert' ? 'insert' : 'update';
      await sql`create trigger ${sql.raw(`click_rollups_account_link_days_${name}`)} after ${sql.raw(event)} on click_rollups
        when new.dimension in ('total', 'qr') begin
        insert into account_link_days (account_id, day, link_id, clicks, qr)
          select account_id, new.day, new.link_id, case when new.dimension = 'total' then ${sql.raw(count)} else 0 end,
            case when new.dimension = 'qr' then ${sql.raw(count)} else 0 end from links where id = new.link_id
        on conflict (account_id, day, link_id) do update set clicks = clicks + excluded.clicks, qr = qr + excluded.qr; end`.execute(
        trx,
      );
    }
    await backfill(trx);
  });
}

/** Every link's days so far; nothing before this migration was a QR scan anyone could tell apart. */
async function backfill(db: Kysely<unknown>): Promise<void> {
  await sql`insert into account_link_days (account_id, day, link_id, clicks)
    select l.account_id, r.day, r.link_id, sum(r.count) from click_rollups r join links l on l.id = r.link_id
    where r.dimension = 'total' group by l.account_id, r.day, r.link_id`.execute(db);
}

export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'sqlite') {
    await sql`drop trigger click_rollups_account_link_days_insert`.execute(db);
    await sql`drop trigger click_rollups_account_link_days_update`.execute(db);
  }
  await sql`drop table account_link_days`.execute(db);
  await sql`alter table clicks drop column qr`.execute(db);
}
