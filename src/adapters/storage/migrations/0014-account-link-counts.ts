import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/**
 * How many links an account has, by space, domain and disabled flag: the list's `total` for the
 * filters those decide (every link, a space, a domain, disabled, and active or expired with the
 * expired ones counted apart) is a sum of a few rows instead of a count of the account's links,
 * which for an account of a million links costs more than the page (docs/design/links.md).
 *
 * Triggers keep it, so every writer of links (the API, the web app, the importer, a bulk action,
 * a cascade from a deleted space, domain or account) agrees with it without a line of its own.
 * No space or no domain is keyed 0. There is no foreign key to accounts: an account's deletion
 * cascades to its links, whose triggers then bring its rows to zero.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') {
    await sql`create table account_link_counts (
      account_id integer not null,
      space_id integer not null,
      domain_id integer not null,
      disabled integer not null,
      count bigint not null,
      primary key (account_id, space_id, domain_id, disabled) include (count))`.execute(db);
    // Inserts and deletes are counted a statement at a time (an import or a bulk delete of
    // thousands of links writes each counter row once), in key order so that two writers take
    // the rows' locks in the same order. Transition tables allow no column list, so the update
    // trigger is a row trigger that fires only when a counted column changes: the click writer's
    // updates of `clicks` never reach it.
    await sql`create function account_link_counts_add() returns trigger language plpgsql as $$
      begin
        insert into account_link_counts (account_id, space_id, domain_id, disabled, count)
          select account_id, coalesce(space_id, 0), coalesce(domain_id, 0), disabled,
                 case when tg_op = 'INSERT' then count(*) else -count(*) end
          from changed group by 1, 2, 3, 4 order by 1, 2, 3, 4
          on conflict (account_id, space_id, domain_id, disabled) do update set count = account_link_counts.count + excluded.count;
        return null;
      end $$`.execute(db);
    await sql`create trigger links_counts_insert after insert on links
      referencing new table as changed for each statement execute function account_link_counts_add()`.execute(db);
    await sql`create trigger links_counts_delete after delete on links
      referencing old table as changed for each statement execute function account_link_counts_add()`.execute(db);
    await sql`create function account_link_counts_move() returns trigger language plpgsql as $$
      begin
        insert into account_link_counts (account_id, space_id, domain_id, disabled, count)
          values (old.account_id, coalesce(old.space_id, 0), coalesce(old.domain_id, 0), old.disabled, -1)
          on conflict (account_id, space_id, domain_id, disabled) do update set count = account_link_counts.count - 1;
        insert into account_link_counts (account_id, space_id, domain_id, disabled, count)
          values (new.account_id, coalesce(new.space_id, 0), coalesce(new.domain_id, 0), new.disabled, 1)
          on conflict (account_id, space_id, domain_id, disabled) do update set count = account_link_counts.count + 1;
        return null;
      end $$`.execute(db);
    await sql`create trigger links_counts_update after update of account_id, space_id, domain_id, disabled on links for each row
      when (old.account_id is distinct from new.account_id or old.space_id is distinct from new.space_id
        or old.domain_id is distinct from new.domain_id or old.disabled is distinct from new.disabled)
      execute function account_link_counts_move()`.execute(db);
    await clickCappedIndex(db);
    await backfill(db);
    return;
  }
  // SQLite writes one transaction at a time: row triggers are enough.
  await db.transaction().execute(async (trx) => {
    await sql`create table account_link_counts (
      account_id integer not null,
      space_id integer not null,
      domain_id integer not null,
      disabled integer not null,
      count integer not null,
      primary key (account_id, space_id, domain_id, disabled)) without rowid`.execute(trx);
    const add = (row: 'new' | 'old', delta: 1 | -1) =>
      sql.raw(`insert into account_link_counts (account_id, space_id, domain_id, disabled, count)
        values (${row}.account_id, coalesce(${row}.space_id, 0), coalesce(${row}.domain_id, 0), ${row}.disabled, ${delta})
        on conflict (account_id, space_id, domain_id, disabled) do update set count = count + (${delta});`);
    await sql`create trigger links_counts_insert after insert on links begin ${add('new', 1)} end`.execute(trx);
    await sql`create trigger links_counts_delete after delete on links begin ${add('old', -1)} end`.execute(trx);
    await sql`create trigger links_counts_update after update of account_id, space_id, domain_id, disabled on links
      when old.account_id is not new.account_id or old.space_id is not new.space_id
        or old.domain_id is not new.domain_id or old.disabled is not new.disabled
      begin ${add('old', -1)} ${add('new', 1)} end`.execute(trx);
    await clickCappedIndex(trx);
    await backfill(trx);
  });
}

/**
 * The links with a click limit, for counting those that reached it: the status index orders by
 * `ends_at` first, so without this that count reads every enabled link of the account.
 */
async function clickCappedIndex(db: Kysely<unknown>): Promise<void> {
  await sql`create index links_account_click_capped on links (account_id, disabled, clicks, expiration_clicks) where expiration_clicks > 0`.execute(
    db,
  );
}

async function backfill(db: Kysely<unknown>): Promise<void> {
  await sql`insert into account_link_counts (account_id, space_id, domain_id, disabled, count)
    select account_id, coalesce(space_id, 0), coalesce(domain_id, 0), disabled, count(*) from links group by 1, 2, 3, 4`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const on = engine === 'postgres' ? sql`on links` : sql``;
  for (const name of ['links_counts_insert', 'links_counts_delete', 'links_counts_update'])
    await sql`drop trigger if exists ${sql.id(name)} ${on}`.execute(db);
  if (engine === 'postgres') {
    await sql`drop function if exists account_link_counts_add()`.execute(db);
    await sql`drop function if exists account_link_counts_move()`.execute(db);
  }
  await sql`drop index if exists links_account_click_capped`.execute(db);
  await sql`drop table if exists account_link_counts`.execute(db);
}
