/**
 * The workspace of bench/web-pages.ts's analytics pages, loaded straight with SQL: `links` links
 * (50 tags, a quarter untagged and a third of the rest with two; 5 spaces; 20 hosts; UTM values
 * on four in five) and `clicks` human clicks over the last 365 days spread over all of them: each
 * day the first 1 000 links ("hot", 60 % of the clicks) and 9 000 of the others in turn, so that
 * every link is clicked within 11 days and a month's range holds nearly every link; about 4 % of
 * the visits through a QR code.
 *
 * What is written is what the click writer leaves for those clicks, short of what the workspace's
 * reads never touch: the `total` and `qr` rollups of every link-day, from which SQLite's row
 * triggers write `account_click_days`, `account_link_days` and `account_value_days` (migrations 0036, 0050, 0054; on
 * PostgreSQL the same rows by statements like the writer's); `links.clicks`; and the click rows
 * of the last `CLICK_ROW_DAYS` days only (the workspace's reads never read click rows, so a year
 * of them would be load time for nothing timed). No hour, breakdown, unique or bot rollups for
 * these links.
 */
import { sql, type Kysely } from 'kysely';
import { addDays } from '../src/core/stats/range.ts';
import { epochMsToZonedDate } from '../src/core/expiration/ends-at.ts';
import type { Database } from '../src/adapters/storage/schema.ts';
import {
  createValueTriggers,
  dropValueTriggers,
  valueDaysFromLinkDays,
} from '../src/adapters/storage/migrations/0054-account-value-days.ts';

const DAYS = 365;
const DAY_MS = 86_400_000;
const HOT = 1000;
const PER_DAY = 10_000;
const HOT_SHARE = 0.6;
const SPACES = 5;
const TAGS = 50;
/** The days whose clicks are loaded as click rows too. */
export const CLICK_ROW_DAYS = 7;

export interface AnalyticsSeeded {
  firstDay: string;
  today: string;
  linkDays: number;
  clickRows: number;
}

export async function seedAnalytics(
  db: Kysely<Database>,
  engine: 'sqlite' | 'postgres',
  accountId: number,
  timezone: string,
  size: { links: number; clicks: number },
): Promise<AnalyticsSeeded> {
  const { links: LINKS, clicks: CLICKS } = size;
  const hot = Math.min(HOT, LINKS);
  const cold = LINKS - hot;
  const coldPerDay = Math.min(PER_DAY - hot, cold);
  const now = Date.now();
  const today = epochMsToZonedDate(now, timezone);
  const firstDay = addDays(today, -(DAYS - 1));
  const account = sql.lit(accountId);

  const spaces = await db
    .insertInto('spaces')
    .values(
      Array.from({ length: SPACES }, (_, i) => ({
        account_id: accountId,
        name: `Team ${i + 1}`,
        name_key: `team ${i + 1}`,
        color: i + 1,
        created_at: now,
        updated_at: now,
      })),
    )
    .returning('id')
    .execute();
  const spaceOf = sql.join(
    spaces.map((s, i) => sql`when ${sql.lit(i)} then ${sql.lit(s.id)}`),
    sql` `,
  );
  await sql`
    with recursive s(n) as (select 0 union all select n + 1 from s where n < cast(${LINKS - 1} as integer))
    insert into links (account_id, space_id, alias, alias_key, url, utm_source, utm_medium, utm_campaign, destination_host,
                       title, target_type, disabled, privacy, ends_at, clicks, created_at, updated_at)
    select ${account}, case n % ${sql.lit(SPACES + 1)} ${spaceOf} else null end, 'w' || n, 'w' || n,
           'https://' || case when n % 7 = 0 then 'www.' else '' end || 'shop' || (n % 20) || '.example/p/' || n ||
             case when n % 5 = 0 then ''
               else '?utm_source=source' || (n % 12) || '&utm_medium=medium' || (n % 6) || '&utm_campaign=campaign' || (n % 200) end,
           case when n % 5 = 0 then null else 'source' || (n % 12) end, case when n % 5 = 0 then null else 'medium' || (n % 6) end,
           case when n % 5 = 0 then null else 'campaign' || (n % 200) end, 'shop' || (n % 20) || '.example',
           'Page ' || n, 0, 0, 0, null, 0,
           cast(${now - DAYS * DAY_MS} as bigint) + n, cast(${now} as bigint)
    from s`.execute(db);
  const ids = await db
    .selectFrom('links')
    .select((eb) => [eb.fn.min('id').as('first'), eb.fn.max('id').as('last')])
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  const first = Number(ids.first);
  // The link-days below name links by their offset from the first: one statement made them all.
  if (Number(ids.last) - first + 1 !== LINKS) throw new Error('the workspace links are not one run of ids');

  await db
    .insertInto('tags')
    .values(
      Array.from({ length: TAGS }, (_, i) => ({
        account_id: accountId,
        name: `Tag ${i + 1}`,
        name_key: `tag ${i + 1}`,
        color: 'blue',
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  // Three links in four tagged, one in three of those twice.
  await sql`insert into link_tags (link_id, tag_id)
    select l.id, t.id from links l join tags t on t.account_id = ${account}
      and (t.name = 'Tag ' || (1 + l.id % ${sql.lit(TAGS)}) or (l.id % 3 = 0 and t.name = 'Tag ' || (1 + (l.id / 3 + 7) % ${sql.lit(TAGS)})))
    where l.account_id = ${account} and l.id % 4 <> 0
    on conflict do nothing`.execute(db);

  // The link-days: day dn, slot j; hot links every day, the others in turn. c clicks each (the
  // cold ones q or q + 1, summing to CLICKS exactly), qr of them through a QR code.
  const hotClicks = hot === 0 ? 0 : Math.floor((CLICKS * (cold === 0 ? 1 : HOT_SHARE)) / (hot * DAYS));
  const coldLinkDays = coldPerDay * DAYS;
  const coldClicks = CLICKS - hotClicks * hot * DAYS;
  const q = coldLinkDays === 0 ? 0 : Math.floor(coldClicks / coldLinkDays);
  const r = coldLinkDays === 0 ? 0 : coldClicks % coldLinkDays;
  const dayOf =
    engine === 'sqlite'
      ? sql`date(${sql.lit(firstDay)}, '+' || d.n || ' days')`
      : sql`to_char(date ${sql.lit(firstDay)} + d.n, 'YYYY-MM-DD')`;
  const linkDays = (fromDay: number) => sql`
    with recursive
      d(n) as (select ${sql.lit(fromDay)} union all select n + 1 from d where n < ${sql.lit(DAYS - 1)}),
      j(n) as (select 0 union all select n + 1 from j where n < ${sql.lit(hot + coldPerDay - 1)}),
      dd(n, day) as (select d.n, ${dayOf} from d),
      ld(link_id, day, dn, c, qr) as (
        select ${sql.lit(first)} + case when j.n < ${sql.lit(hot)} then j.n
                 else ${sql.lit(hot)} + (dd.n * ${sql.lit(coldPerDay)} + j.n - ${sql.lit(hot)}) % ${sql.lit(Math.max(1, cold))} end,
          dd.day, dd.n,
          case when j.n < ${sql.lit(hot)} then ${sql.lit(hotClicks)}
            else ${sql.lit(q)} + case when dd.n * ${sql.lit(coldPerDay)} + j.n - ${sql.lit(hot)} < ${sql.lit(r)} then 1 else 0 end end,
          case when j.n < ${sql.lit(hot)} then case when j.n % 10 = 0 then ${sql.lit(Math.floor(hotClicks / 3))} else 0 end
            when (dd.n * ${sql.lit(coldPerDay)} + j.n) % 20 = 0 then 1 else 0 end
        from dd cross join j)`;
  const target = engine === 'sqlite' ? sql`click_rollups` : sql`click_rollups_settled`;
  // The value days from the link days by one statement each, not a trigger's seven a row: the
  // same rows, as migration 0054's backfill makes them (its test).
  if (engine === 'sqlite') await dropValueTriggers(db as never);
  await sql`${linkDays(0)}
    insert into ${target} (link_id, dimension, day, value, count)
    select link_id, 'total', day, '', c from ld where c > 0`.execute(db);
  await sql`${linkDays(0)}
    insert into ${target} (link_id, dimension, day, value, count)
    select link_id, 'qr', day, '', case when qr > c then c else qr end from ld where qr > 0 and c > 0`.execute(db);
  if (engine === 'postgres') {
    // What the click writer adds beside the rollups (SQLite's triggers did it above).
    await sql`insert into account_click_days (account_id, day, count)
      select ${account}, day, sum(count) from click_rollups_settled
      where dimension = 'total' and link_id between ${sql.lit(first)} and ${sql.lit(first + LINKS - 1)} group by day
      on conflict (account_id, day) do update set count = account_click_days.count + excluded.count`.execute(db);
    await sql`insert into account_link_days (account_id, day, link_id, clicks, qr)
      select ${account}, day, link_id, sum(case when dimension = 'total' then count else 0 end),
        sum(case when dimension = 'qr' then count else 0 end) from click_rollups_settled
      where dimension in ('total', 'qr') and link_id between ${sql.lit(first)} and ${sql.lit(first + LINKS - 1)}
      group by day, link_id order by day, link_id`.execute(db);
  }
  await valueDaysFromLinkDays(db as never, engine, accountId);
  if (engine === 'sqlite') await createValueTriggers(db as never);
  // The links' counters, as the writer keeps them.
  await sql`update links set clicks = s.clicks
    from (select link_id, sum(clicks) as clicks from account_link_days where account_id = ${account} group by link_id) s
    where links.id = s.link_id`.execute(db);

  // The last days' click rows, one a click, spread over the day (UTC-stamped: no timed read uses them).
  const rowsFrom = DAYS - CLICK_ROW_DAYS;
  const k = sql`k(n) as (select 0 union all select n + 1 from k where n < ${sql.lit(Math.max(hotClicks, q + 1) - 1)})`;
  const withK = sql`${linkDays(rowsFrom)}, ${k}`;
  await sql`${withK}
    insert into clicks (link_id, account_id, at, country, city, browser, platform, device, language, referrer_host, is_bot, qr)
    select ld.link_id, ${account},
      cast(${now} as bigint) - cast(${sql.lit(DAYS - 1)} - ld.dn as bigint) * ${sql.lit(DAY_MS)} - cast(k.n as bigint) * 997 * 61,
      'DE', 'Berlin', 'Chrome', 'Windows', 'desktop', 'de', case when k.n % 3 = 0 then 'news.example' else null end, 0,
      case when k.n < ld.qr then 1 else 0 end
    from ld join k on k.n < ld.c`.execute(db);
  const clickRows = await db
    .selectFrom('clicks')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return { firstDay, today, linkDays: (hot + coldPerDay) * DAYS, clickRows: Number(clickRows.n) };
}
