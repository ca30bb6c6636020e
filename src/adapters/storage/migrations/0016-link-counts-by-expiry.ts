import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import * as countsWithoutFlag from './0014-account-link-counts.ts';

/**
 * The link counters (migration 0014) also keyed by `expiry_told` (migration 0015), so the list's
 * active and expired totals count only the links that expired since the expiry sweep last ran,
 * not every link past its date (docs/design/links.md). A told link is an expired one: the
 * sweep tells only expired links and an update that opens a link again clears the flag.
 *
 * The key changes, so the table and its triggers are made again and filled from the links; the
 * triggers are 0014's with one more column, and an update of `expiry_told` (the sweep's) moves a
 * link between two rows like a change of space does.
 *
 * The links past their date and not yet told are counted per account in an index of their own:
 * 0015's (by date alone, for the sweep) reads every account's, and SQLite would rather read
 * the account's expired links in the status index than use it.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') {
    await dropCounters(db, engine);
    await sql`create table account_link_counts (
      account_id integer not null,
      space_id integer not null,
      domain_id integer not null,
      disabled integer not null,
      expiry_told integer not null,
      count bigint not null,
      primary key (account_id, space_id, domain_id, disabled, expiry_told) include (count))`.execute(db);
    // As in 0014: inserts and deletes a statement at a time, in key order (no deadlock between
    // two writers); an update a row at a time, only when a counted column changes.
    await sql`create function account_link_counts_add() returns trigger language plpgsql as $$
      begin
        insert into account_link_counts (account_id, space_id, domain_id, disabled, expiry_told, count)
          select account_id, coalesce(space_id, 0), coalesce(domain_id, 0), disabled, expiry_told,
                 case when tg_op = 'INSERT' then count(*) else -count(*) end
          from changed group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
          on conflict (account_id, space_id, domain_id, disabled, expiry_told) do update set count = account_link_counts.count + excluded.count;
        return null;
      end $$`.execute(db);
    await sql`create trigger links_counts_insert after insert on links
      referencing new table as changed for each statement execute function account_link_counts_add()`.execute(db);
    await sql`create trigger links_counts_delete after delete on links
      referencing old table as changed for each statement execute function account_link_counts_add()`.execute(db);
    await sql`create function account_link_counts_move() returns trigger language plpgsql as $$
      begin
        insert into account_link_counts (account_id, space_id, domain_id, disabled, expiry_told, count)
          values (old.account_id, coalesce(old.space_id, 0), coalesce(old.domain_id, 0), old.disabled, old.expiry_told, -1)
          on conflict (account_id, space_id, domain_id, disabled, expiry_told) do update set count = account_link_counts.count - 1;
        insert into account_link_counts (account_id, space_id, domain_id, disabled, expiry_told, count)
          values (new.account_id, coalesce(new.space_id, 0), coalesce(new.domain_id, 0), new.disabled, new.expiry_told, 1)
          on conflict (account_id, space_id, domain_id, disabled, expiry_told) do update set count = account_link_counts.count + 1;
        return null;
      end $$`.execute(db);
    await sql`create trigger links_counts_update after update of account_id, space_id, domain_id, disabled, expiry_told on links for each row
      when (old.account_id is distinct from new.account_id or old.space_id is distinct from new.space_id
        or old.domain_id is distinct from new.domain_id or old.disabled is distinct from new.disabled
        or old.expiry_told is distinct from new.expiry_told)
      execute function account_link_counts_move()`.execute(db);
    await untoldByDateIndex(db);
    await backfill(db);
    return;
  }
  await db.transaction().execute(async (trx) => {
    await dropCounters(trx, engine);
    await sql`create table account_link_counts (
      account_id integer not null,
      space_id integer not null,
      domain_id integer not null,
      disabled integer not null,
      expiry_told integer not null,
      count integer not null,
      primary key (account_id, space_id, domain_id, disabled, expiry_told)) without rowid`.execute(trx);
    const add = (row: 'new' | 'old', delta: 1 | -1) =>
      sql.raw(`insert into account_link_counts (account_id, space_id, domain_id, disabled, expiry_told, count)
        values (${row}.account_id, coalesce(${row}.space_id, 0), coalesce(${row}.domain_id, 0), ${row}.disabled, ${row}.expiry_told, ${delta})
        on conflict (account_id, space_id, domain_id, disabled, expiry_told) do update set count = count + (${delta});`);
    await sql`create trigger links_counts_insert after insert on links begin ${add('new', 1)} end`.execute(trx);
    await sql`create trigger links_counts_delete after delete on links begin ${add('old', -1)} end`.execute(trx);
    await sql`create trigger links_counts_update after update of account_id, space_id, domain_id, disabled, expiry_told on links
      when old.account_id is not new.account_id or old.space_id is not new.space_id
        or old.domain_id is not new.domain_id or old.disabled is not new.disabled
        or old.expiry_told is not new.expiry_told
      begin ${add('old', -1)} ${add('new', 1)} end`.execute(trx);
    await untoldByDateIndex(trx);
    await backfill(trx);
  });
}

async function untoldByDateIndex(db: Kysely<unknown>): Promise<void> {
  await sql`create index links_account_untold_by_date on links (account_id, disabled, ends_at) where expiry_told = 0 and ends_at is not null`.execute(
    db,
  );
}

async function backfill(db: Kysely<unknown>): Promise<void> {
  await sql`insert into account_link_counts (account_id, space_id, domain_id, disabled, expiry_told, count)
    select account_id, coalesce(space_id, 0), coalesce(domain_id, 0), disabled, expiry_told, count(*) from links group by 1, 2, 3, 4, 5`.execute(
    db,
  );
}

/** The counters' triggers, functions and table, whichever key they have. */
async function dropCounters(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const on = engine === 'postgres' ? sql`on links` : sql``;
  for (const name of ['links_counts_insert', 'links_counts_delete', 'links_counts_update'])
    await sql`drop trigger if exists ${sql.id(name)} ${on}`.execute(db);
  if (engine === 'postgres') {
    await sql`drop function if exists account_link_counts_add()`.execute(db);
    await sql`drop function if exists account_link_counts_move()`.execute(db);
  }
  await sql`drop table if exists account_link_counts`.execute(db);
}

/** Back to 0014's counters: the same table and triggers without the flag. */
export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await dropCounters(db, engine);
  await sql`drop index if exists links_account_untold_by_date`.execute(db);
  // 0014's up also creates its partial index, which this migration left in place.
  await sql`drop index if exists links_account_click_capped`.execute(db);
  await countsWithoutFlag.up(db, engine);
}
