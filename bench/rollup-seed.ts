/**
 * Click rollups loaded straight with one SQL statement per engine, the way the click batches
 * would have left them: every dimension, a spread of values a day. Shared by bench/stats.ts
 * (ten million clicks over a thousand links) and bench/web-pages.ts (one link with ten million).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import countries from 'i18n-iso-countries';
import type { Database } from '../src/adapters/storage/schema.ts';
import type { StatsMaintenance } from '../src/core/stats/stats-maintenance.ts';

/** [dimension, values a link-day (k), values in the pool (m)]. */
export type Slot = [string, number, number];

/**
 * k of m per dimension, in the primary key's order so SQLite appends. With ~27 clicks a
 * link-day that is 79 rollup rows a link-day; over a year a link sees up to m distinct values
 * (500 cities, 1 000 referrers).
 */
export const SLOTS: Slot[] = [
  ['bot', 1, 1],
  ['browser', 6, 12],
  ['city', 10, 500],
  ['country', 10, 60],
  ['device', 3, 4],
  ['hour', 24, 24],
  ['language', 8, 40],
  ['platform', 5, 7],
  ['referrer', 10, 1000],
  ['total', 1, 1],
  ['unique', 1, 1],
];

export interface RollupLoad {
  /** Selects the links to load (`id`), in a stable order. */
  links: RawBuilder<unknown>;
  /** How many rows `links` selects. */
  linkCount: number;
  clicks: number;
  firstDay: string;
  days: number;
  slots?: Slot[];
  /** Country values as ISO alpha-2 codes (the map's), rather than `country-N`. */
  isoCountries?: boolean;
  /** PostgreSQL: drop the key and the foreign key during the load and rebuild them once after. */
  bulk?: boolean;
}

/** Inserts the rollups: c clicks a link-day (q or q + 1, summing to `clicks` exactly). */
export async function loadRollups(
  db: Kysely<Database>,
  engine: 'sqlite' | 'postgres',
  load: RollupLoad,
): Promise<void> {
  const { linkCount, clicks, days, firstDay } = load;
  const q = Math.floor(clicks / (linkCount * days));
  const r = clicks % (linkCount * days);
  const slots = sql.join(
    (load.slots ?? SLOTS).map(([dim, k, m]) => sql`(${sql.lit(dim)}, ${sql.lit(k)}, ${sql.lit(m)})`),
  );
  const maxK = Math.max(...(load.slots ?? SLOTS).map(([, k]) => k));
  const dayOf =
    engine === 'sqlite'
      ? sql`date(${sql.lit(firstDay)}, '+' || d.n || ' days')`
      : sql`to_char(date ${sql.lit(firstDay)} + d.n, 'YYYY-MM-DD')`;
  const pick = sql`((ld.ln * 31 + ld.dn * 7 + j.n * (slots.m / slots.k)) % slots.m)`;
  const codes = Object.keys(countries.getAlpha2Codes()).sort().join('');
  const country = load.isoCountries
    ? sql`when 'country' then substr(${sql.lit(codes)}, cast(1 + 2 * (${pick} % ${sql.lit(codes.length / 2)}) as integer), 2)`
    : sql``;
  // Per dimension, k values sharing c (j < c % k get one more); unique ≈ 80 %, bots ≈ 10 % of c.
  const select = sql`
    with recursive
      d(n) as (select 0 union all select n + 1 from d where n < cast(${days - 1} as integer)),
      j(n) as (select 0 union all select n + 1 from j where n < cast(${maxK - 1} as integer)),
      slots(dim, k, m) as (values ${slots}),
      l(id, n) as (select id, row_number() over (order by id) - 1 from (${load.links}) chosen),
      ld(id, ln, dn, c) as (
        select l.id, l.n, d.n, cast(${q} as integer) + case when l.n * ${days} + d.n < ${r} then 1 else 0 end
        from l cross join d)
    select ld.id as link_id, slots.dim as dimension, ${dayOf} as day,
      case slots.dim
        when 'total' then '' when 'unique' then '' when 'bot' then ''
        when 'hour' then case when j.n < 10 then '0' || j.n else '' || j.n end
        ${country}
        else slots.dim || '-' || ${pick}
      end as value,
      case slots.dim
        when 'unique' then (ld.c * 4) / 5
        when 'bot' then ld.c / 10 + 1
        else ld.c / slots.k + case when j.n < ld.c % slots.k then 1 else 0 end
      end as count
    from ld cross join slots cross join d cross join j
    where d.n = ld.dn and j.n < slots.k`;
  if (engine === 'postgres' && load.bulk) {
    // Bulk load: checks and the key are rebuilt once at the end rather than per row. The days
    // loaded are past ones: the settled days' table (migration 0038).
    await sql`alter table click_rollups_settled drop constraint click_rollups_pk`.execute(db);
    await sql`alter table click_rollups_settled drop constraint if exists click_rollups_link_id_fkey`.execute(db);
    await sql`insert into click_rollups_settled (link_id, dimension, day, value, count) ${select}`.execute(db);
    await sql`alter table click_rollups_settled add constraint click_rollups_pk primary key (link_id, dimension, day, value) include (count)`.execute(
      db,
    );
    await sql`alter table click_rollups_settled add constraint click_rollups_link_id_fkey foreign key (link_id) references links (id) on delete cascade`.execute(
      db,
    );
  } else if (engine === 'sqlite') {
    await sql`pragma foreign_keys = off`.execute(db);
    await sql`insert into click_rollups (link_id, dimension, day, value, count) ${select}`.execute(db);
    await sql`pragma foreign_keys = on`.execute(db);
  } else {
    await sql`insert into click_rollups_settled (link_id, dimension, day, value, count) ${select}`.execute(db);
  }
  if (engine === 'postgres') {
    // The accounts' days, as the click writer adds them (SQLite's triggers did, migration 0036).
    await sql`insert into account_click_days (account_id, day, count)
      select l.account_id, r.day, sum(r.count) from click_rollups_settled r join links l on l.id = r.link_id
      where r.dimension = 'total' and r.link_id in (select id from (${load.links}) as loaded) group by 1, 2
      on conflict (account_id, day) do update set count = account_click_days.count + excluded.count`.execute(db);
    // And the workspaces' link days (migration 0050), written beside them.
    await sql`insert into account_link_days (account_id, day, link_id, clicks)
      select l.account_id, r.day, r.link_id, sum(r.count) from click_rollups_settled r join links l on l.id = r.link_id
      where r.dimension = 'total' and r.link_id in (select id from (${load.links}) as loaded) group by 1, 2, 3
      on conflict (account_id, day, link_id) do update set clicks = account_link_days.clicks + excluded.clicks`.execute(
      db,
    );
  }
}

/**
 * Folds the loaded rollups' finished months into monthly and quarterly ones (docs/design/statistics.md), as a running
 * server's background rounds would have, and says how long it took.
 */
export async function foldFinishedMonths(
  db: Kysely<Database>,
  engine: 'sqlite' | 'postgres',
  stats: StatsMaintenance,
): Promise<void> {
  // The rollups were loaded past the click writers, into months a server may have gone through
  // already (when it had no links): the folding starts over, as on a database never folded.
  await db.deleteFrom('click_rollup_quarters').execute();
  await db.deleteFrom('click_rollup_months').execute();
  await db
    .updateTable('rollup_month_folds')
    .set({ folded_before: '0000-01', pass_to: null, pass_last_link_id: null, through_link_id: null })
    .execute();
  const start = performance.now();
  let links = 0;
  for (let round: number; (round = await stats.foldMonths(1_000_000)) > 0;) links += round;
  // Vacuumed as autovacuum does an insert-only table: its index-only scans need the visibility map.
  if (engine === 'postgres') {
    await sql`vacuum analyze click_rollup_months`.execute(db);
    await sql`vacuum analyze click_rollup_quarters`.execute(db);
  } else await sql`analyze`.execute(db);
  console.log(
    `folded the finished months of ${links.toLocaleString('en')} links in ${((performance.now() - start) / 1000).toFixed(1)} s`,
  );
}
