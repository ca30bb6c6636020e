import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * Monthly sums of the daily rollups (docs/design/statistics.md): a month's rows per link, dimension and
 * value, folded from the daily ones once the month is over, so that statistics over a long
 * range read a row per value and month instead of one per value and day. Keyed and stored as
 * click_rollups is. `rollup_month_folds` says how far the folding has come: every month before
 * `folded_before` is folded for every link, and while a pass runs, the months before `pass_to`
 * for the links up to `through_link_id`. Nothing is folded here: the running server does it
 * in the background, a few links at a time.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  const collate = engine === 'postgres' ? sql`collate "C"` : sql``;
  await sql`create table click_rollup_months (
    link_id integer not null references links (id) on delete cascade,
    dimension varchar(16) ${collate} not null,
    month varchar(7) ${collate} not null,
    value varchar(255) ${collate} not null,
    count ${sql.raw(bigint)} not null,
    ${engine === 'postgres' ? sql`primary key (link_id, dimension, month, value) include (count))` : sql`primary key (link_id, dimension, month, value)) without rowid`}`.execute(
    db,
  );
  await sql`create table rollup_month_folds (
    id integer primary key,
    folded_before varchar(7) not null,
    pass_to varchar(7),
    pass_last_link_id integer,
    through_link_id integer)`.execute(db);
  await sql`insert into rollup_month_folds (id, folded_before) values (1, '0000-01')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists rollup_month_folds`.execute(db);
  await sql`drop table if exists click_rollup_months`.execute(db);
}
