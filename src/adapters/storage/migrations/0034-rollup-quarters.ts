import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/** The first month of a month's quarter (YYYY-01, -04, -07 or -10), in SQL both engines read. */
const quarterOf = (month: string) => sql<string>`substr(${sql.ref(month)}, 1, 5) || case
  when substr(${sql.ref(month)}, 6, 2) < '04' then '01'
  when substr(${sql.ref(month)}, 6, 2) < '07' then '04'
  when substr(${sql.ref(month)}, 6, 2) < '10' then '07'
  else '10' end`;

/** The first month of `month`'s quarter, as quarterOf in SQL. */
function quarterStart(month: string): string {
  const m = Number(month.slice(5, 7));
  return `${month.slice(0, 5)}${String(m - ((m - 1) % 3)).padStart(2, '0')}`;
}

/**
 * Quarterly sums of the monthly rollups (docs/design/statistics.md), keyed by the quarter's first month and
 * stored as click_rollup_months is. A link's quarter is folded in the transaction that folds its
 * last month, so the months already folded are summed here: every quarter wholly before
 * `folded_before`, and while a pass runs, wholly before `pass_to` for the links it has been
 * through. From here on every folded month's quarter is folded whenever all its months are.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  const collate = engine === 'postgres' ? sql`collate "C"` : sql``;
  await sql`create table click_rollup_quarters (
    link_id integer not null references links (id) on delete cascade,
    dimension varchar(16) ${collate} not null,
    quarter varchar(7) ${collate} not null,
    value varchar(255) ${collate} not null,
    count ${sql.raw(bigint)} not null,
    ${engine === 'postgres' ? sql`primary key (link_id, dimension, quarter, value) include (count))` : sql`primary key (link_id, dimension, quarter, value)) without rowid`}`.execute(
    db,
  );
  const state = (
    await sql<{
      folded_before: string;
      pass_to: string | null;
      through_link_id: number | null;
    }>`select folded_before, pass_to, through_link_id
      from rollup_month_folds where id = 1`.execute(db)
  ).rows[0];
  if (!state) return;
  const before = quarterStart(state.folded_before);
  const passed =
    state.pass_to === null
      ? sql`false`
      : sql`(link_id <= ${state.through_link_id ?? 0} and month < ${quarterStart(state.pass_to)})`;
  await sql`insert into click_rollup_quarters (link_id, dimension, quarter, value, count)
    select link_id, dimension, ${quarterOf('month')}, value, sum(count) from click_rollup_months
    where month < ${before} or ${passed}
    group by link_id, dimension, ${quarterOf('month')}, value`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists click_rollup_quarters`.execute(db);
}
