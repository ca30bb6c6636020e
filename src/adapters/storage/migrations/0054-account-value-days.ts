import { sql, type Kysely } from 'kysely';
import { urlValuesOf } from '../../../core/analytics/workspace-stats.ts';
import type { Engine } from '../connect.ts';

/**
 * Workspace analytics by value (docs/design/statistics.md, "Workspace analytics").
 *
 * `links.utm_source`, `utm_medium`, `utm_campaign`, `destination_host`: what the URL breakdowns
 * count a link's clicks under, parsed from its URL by the link store whenever it writes the URL
 * (`urlValuesOf`), so that SQL counts them without parsing URLs.
 *
 * `account_value_days(account_id, day, name, value, clicks)`: a workspace's human clicks a local
 * day under each value of each breakdown (`tags`, `spaces`, `utm_source`, `utm_medium`,
 * `utm_campaign`, `destinations`; `''` for none), counted under the link's facts when the click
 * is counted (a link with two tags under both); and `qr`: value `qr` its QR scans, value `''`
 * all its clicks (a deleted link's included). Written where account_link_days is: SQLite's row
 * triggers on the `total` and `qr` rollups; PostgreSQL's window statement after the link days.
 * A breakdown is then one range of the key, (workspace, days, name): days × values rows.
 *
 * The backfill counts the days so far under the links' facts as they are now, which is what
 * the breakdowns answered before: existing installs keep their numbers.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') return made(db, engine);
  await db.transaction().execute((trx) => made(trx, engine));
}

async function made(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const text = engine === 'postgres' ? sql`text collate "C"` : sql`text`;
  for (const column of ['utm_source', 'utm_medium', 'utm_campaign', 'destination_host'])
    await sql`alter table links add column ${sql.ref(column)} text`.execute(db);
  await backfillLinks(db);
  await sql`create table account_value_days (
    account_id integer not null references accounts (id) on delete cascade,
    day varchar(10) ${engine === 'postgres' ? sql`collate "C"` : sql``} not null,
    name varchar(16) ${engine === 'postgres' ? sql`collate "C"` : sql``} not null,
    value ${text} not null,
    clicks bigint not null default 0,
    primary key (account_id, day, name, value)${engine === 'postgres' ? sql` include (clicks)` : sql``})
    ${engine === 'postgres' ? sql`with (fillfactor = 70)` : sql`without rowid`}`.execute(db);
  if (engine === 'sqlite') await createValueTriggers(db);
  await valueDaysFromLinkDays(db, engine);
}

/** SQLite's row triggers that write the value days with the `total` and `qr` rollups. */
export async function createValueTriggers(db: Kysely<unknown>): Promise<void> {
  for (const [event, count] of [
    ['insert', 'new.count'],
    ['update of count', 'new.count - old.count'],
  ] as const) {
    const name = event === 'insert' ? 'insert' : 'update';
    await sql`create trigger ${sql.raw(`click_rollups_account_value_days_${name}`)} after ${sql.raw(event)} on click_rollups
      when new.dimension in ('total', 'qr') begin
      insert into account_value_days (account_id, day, name, value, clicks)
        select account_id, new.day, name, value, ${sql.raw(count)} from (${valuesOfLink(sql`new.link_id`, sql`new.dimension`)}) where true
      on conflict (account_id, day, name, value) do update set clicks = clicks + excluded.clicks; end`.execute(db);
  }
}

/** The triggers gone (bench/analytics-seed.ts loads a year at once, then writes the value days by SQL). */
export async function dropValueTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger click_rollups_account_value_days_insert`.execute(db);
  await sql`drop trigger click_rollups_account_value_days_update`.execute(db);
}

/**
 * The (account_id, name, value) rows one click of `link` counts under, for a `total` increment
 * (`dimension` 'total') or a `qr` one (pg-click-statements.ts writes the same for a window).
 */
function valuesOfLink(link: ReturnType<typeof sql>, dimension: ReturnType<typeof sql>) {
  return sql`
    select l.account_id, 'qr' as name, case when ${dimension} = 'qr' then 'qr' else '' end as value from links l where l.id = ${link}
    union all
    select l.account_id, 'tags', t.name from links l join link_tags lt on lt.link_id = l.id
      join tags t on t.id = lt.tag_id and t.account_id = l.account_id
      where l.id = ${link} and ${dimension} = 'total'
    union all
    select l.account_id, 'tags', '' from links l where l.id = ${link} and ${dimension} = 'total'
      and not exists (${TAGS_OF_L})
    union all
    select l.account_id, 'spaces', coalesce(s.name, '') from links l left join spaces s on s.id = l.space_id
      where l.id = ${link} and ${dimension} = 'total'
    union all
    select l.account_id, 'utm_source', coalesce(l.utm_source, '') from links l where l.id = ${link} and ${dimension} = 'total'
    union all
    select l.account_id, 'utm_medium', coalesce(l.utm_medium, '') from links l where l.id = ${link} and ${dimension} = 'total'
    union all
    select l.account_id, 'utm_campaign', coalesce(l.utm_campaign, '') from links l where l.id = ${link} and ${dimension} = 'total'
    union all
    select l.account_id, 'destinations', coalesce(l.destination_host, '') from links l
      where l.id = ${link} and ${dimension} = 'total'`;
}

/** The tags of link `l` (a join in parentheses would be a scan a row on SQLite). */
const TAGS_OF_L = sql`select 1 from link_tags lt join tags t on t.id = lt.tag_id and t.account_id = l.account_id
  where lt.link_id = l.id`;

const LINKS_PER_PASS = 500;

/** Every link's URL values, parsed as the link store parses them. */
async function backfillLinks(db: Kysely<unknown>): Promise<void> {
  for (let after = 0; ;) {
    const { rows } = await sql<{ id: number; url: string }>`select id, url from links where id > ${after}
      order by id limit ${LINKS_PER_PASS}`.execute(db);
    if (rows.length === 0) return;
    const values = sql.join(
      rows.map((r) => {
        const v = urlValuesOf(r.url);
        return sql`(cast(${r.id} as integer), cast(${v.utm_source} as text), cast(${v.utm_medium} as text),
          cast(${v.utm_campaign} as text), cast(${v.destinations} as text))`;
      }),
    );
    const of = (column: string) => sql`(select ${sql.ref(`v.${column}`)} from v where v.id = links.id)`;
    await sql`with v(id, utm_source, utm_medium, utm_campaign, destination_host) as (values ${values})
      update links set utm_source = ${of('utm_source')}, utm_medium = ${of('utm_medium')},
        utm_campaign = ${of('utm_campaign')}, destination_host = ${of('destination_host')}
      where id in (select id from v)`.execute(db);
    after = Number(rows.at(-1)!.id);
  }
}

/**
 * The value days of the days so far from account_link_days, each link's under its facts now
 * (every workspace's, or one's: bench/analytics-seed.ts loads PostgreSQL's link days so).
 */
export async function valueDaysFromLinkDays(db: Kysely<unknown>, engine: Engine, accountId?: number): Promise<void> {
  // Joins of millions of link days, planned on the tables' statistics, which a table loaded just
  // now has none of: PostgreSQL then nests loops for hours. (SQLite is left unanalyzed, as the
  // app's plans expect.)
  if (engine === 'postgres')
    for (const table of ['account_link_days', 'links', 'link_tags', 'tags', 'spaces'])
      await sql`analyze ${sql.table(table)}`.execute(db);
  const only = accountId === undefined ? sql`` : sql`and account_id = ${accountId}`;
  const onlyD = accountId === undefined ? sql`` : sql`and d.account_id = ${accountId}`;
  const into = sql`insert into account_value_days (account_id, day, name, value, clicks)`;
  await sql`${into} select account_id, day, 'qr', '', sum(clicks) from account_link_days
    where true ${only} group by account_id, day having sum(clicks) > 0`.execute(db);
  await sql`${into} select account_id, day, 'qr', 'qr', sum(qr) from account_link_days
    where true ${only} group by account_id, day having sum(qr) > 0`.execute(db);
  const of = (name: string, value: ReturnType<typeof sql>, joins = sql``) => sql`${into}
    select d.account_id, d.day, ${name}, ${value}, sum(d.clicks) from account_link_days d
      join links l on l.id = d.link_id and l.account_id = d.account_id ${joins}
    where d.clicks > 0 ${onlyD} group by d.account_id, d.day, ${value}`;
  await of(
    'tags',
    sql`t.name`,
    sql`join link_tags lt on lt.link_id = l.id join tags t on t.id = lt.tag_id and t.account_id = l.account_id`,
  ).execute(db);
  await sql`${into} select d.account_id, d.day, 'tags', '', sum(d.clicks) from account_link_days d
      join links l on l.id = d.link_id and l.account_id = d.account_id
    where d.clicks > 0 ${onlyD} and not exists (${TAGS_OF_L})
    group by d.account_id, d.day`.execute(db);
  await of('spaces', sql`coalesce(s.name, '')`, sql`left join spaces s on s.id = l.space_id`).execute(db);
  for (const [name, column] of [
    ['utm_source', 'utm_source'],
    ['utm_medium', 'utm_medium'],
    ['utm_campaign', 'utm_campaign'],
    ['destinations', 'destination_host'],
  ] as const)
    await of(name, sql`coalesce(${sql.ref(`l.${column}`)}, '')`).execute(db);
}

export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'sqlite') await dropValueTriggers(db);
  await sql`drop table account_value_days`.execute(db);
  for (const column of ['utm_source', 'utm_medium', 'utm_campaign', 'destination_host'])
    await sql`alter table links drop column ${sql.ref(column)}`.execute(db);
}
