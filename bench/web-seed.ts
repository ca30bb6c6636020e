/**
 * The big account of bench/web-pages.ts, loaded straight with SQL: `links` links in five
 * spaces, a pixel on every 20th, clicks counts spread, every 50th disabled and every 7th
 * expired; one link with `clicks` clicks over the last 365 days in its rollups (a wide spread:
 * 3 000 cities, 5 000 referrers, 200 countries over the year), and 1 000 000 clicks over the
 * last 30 days on 5 000 others (what the dashboard sums account-wide).
 */
import { sql, type Kysely } from 'kysely';
import { loadRollups, type Slot } from './rollup-seed.ts';
import { addDays } from '../src/core/stats/range.ts';
import { epochMsToZonedDate } from '../src/core/expiration/ends-at.ts';
import type { Database } from '../src/adapters/storage/schema.ts';

export const DAYS = 365;
const DAY_MS = 86_400_000;
const SPACES = 5;
const PIXELS = 5;
/** Links with clicks in the last 30 days besides the big one, and their clicks. */
const RECENT_LINKS = 5000;
const RECENT_CLICKS = 1_000_000;

/** A busy link's spread: ~640 rollup rows a day, 233 600 over the year. */
const WIDE_SLOTS: Slot[] = [
  ['bot', 1, 1],
  ['browser', 12, 30],
  ['city', 200, 3000],
  ['country', 60, 200],
  ['device', 4, 4],
  ['hour', 24, 24],
  ['language', 30, 80],
  ['platform', 7, 10],
  ['referrer', 300, 5000],
  ['total', 1, 1],
  ['unique', 1, 1],
];
const TOTALS_ONLY: Slot[] = [
  ['bot', 1, 1],
  ['total', 1, 1],
  ['unique', 1, 1],
];

export interface Seeded {
  /** The link with C clicks. */
  big: number;
  /** An ordinary link with a space and a pixel. */
  plain: number;
  space: number;
  firstDay: string;
  today: string;
}

/**
 * The bench's two links of the account: the big one, the first in a space (made a year old with the
 * year's clicks), and the plain one, another in a space with a pixel, neither disabled nor expired.
 * Read after seeding and again from a schema an earlier run kept (bench:web --schema).
 */
export async function benchLinksOf(db: Kysely<Database>, accountId: number): Promise<{ big: number; plain: number }> {
  const mine = db
    .selectFrom('links')
    .select('id')
    .where('account_id', '=', accountId)
    .where('space_id', 'is not', null);
  const big = (await mine.orderBy('id').executeTakeFirstOrThrow()).id;
  const plain = (
    await mine
      .where('id', '<>', big)
      .where('disabled', '=', 0)
      .where('ends_at', 'is', null)
      .where(sql<boolean>`id % 20 = 0`)
      .orderBy('id')
      .executeTakeFirstOrThrow()
  ).id;
  return { big, plain };
}

export async function seed(
  db: Kysely<Database>,
  engine: 'sqlite' | 'postgres',
  accountId: number,
  timezone: string,
  size: { links: number; clicks: number },
): Promise<Seeded> {
  const { links: LINKS, clicks: CLICKS } = size;
  const recent = Math.min(RECENT_LINKS, LINKS - 1);
  const now = Date.now();
  const today = epochMsToZonedDate(now, timezone);
  const firstDay = addDays(today, -(DAYS - 1));
  const spaces = await db
    .insertInto('spaces')
    .values(
      Array.from({ length: SPACES }, (_, i) => ({
        account_id: accountId,
        name: `Space ${i + 1}`,
        name_key: `space ${i + 1}`,
        color: i + 1,
        created_at: now,
        updated_at: now,
      })),
    )
    .returning('id')
    .execute();
  const pixels = await db
    .insertInto('pixels')
    .values(
      Array.from({ length: PIXELS }, (_, i) => ({
        account_id: accountId,
        name: `Pixel ${i + 1}`,
        name_key: `pixel ${i + 1}`,
        type: 'facebook',
        value: String(100000000000 + i),
        created_at: now,
        updated_at: now,
      })),
    )
    .returning('id')
    .execute();
  const spaceIds = spaces.map((s) => s.id);
  // One statement on both engines, as bench/api-list.ts: five spaces and no space in turn,
  // every 50th disabled, every 7th expired, clicks counts spread, made over the last year.
  const spaceOf = sql.join(
    spaceIds.map((id, i) => sql`when ${sql.lit(i)} then ${sql.lit(id)}`),
    sql` `,
  );
  await sql`
    with recursive s(n) as (select 1 union all select n + 1 from s where n < cast(${LINKS} as integer))
    insert into links (account_id, space_id, alias, alias_key, url, title, target_type, disabled, privacy,
                       ends_at, clicks, created_at, updated_at)
    select cast(${accountId} as integer), case n % ${sql.lit(SPACES + 1)} ${spaceOf} else null end,
           'b' || n, 'b' || n, 'https://example.com/products/' || n || '?utm_source=bench', 'Product page ' || n, 0,
           case when n % 50 = 0 then 1 else 0 end, 0,
           case when n % 7 = 0 then 1000 else null end, (cast(n as bigint) * 7919) % 100000,
           cast(${now - DAYS * DAY_MS} as bigint) + cast(n as bigint) * ${sql.lit(Math.floor((DAYS * DAY_MS) / LINKS))},
           cast(${now} as bigint)
    from s`.execute(db);
  // Every 20th link with one of the pixels.
  const firstPixel = Math.min(...pixels.map((p) => p.id));
  await sql`
    insert into link_pixels (link_id, pixel_id)
    select l.id, p.id from links l join pixels p on p.id = ${sql.lit(firstPixel)} + (l.id / 20) % ${sql.lit(PIXELS)}
    where l.account_id = ${sql.lit(accountId)} and l.id % 20 = 0`.execute(db);
  const { big, plain } = await benchLinksOf(db, accountId);
  await db
    .updateTable('links')
    .set({ created_at: now - DAYS * DAY_MS, clicks: CLICKS, disabled: 0, ends_at: null })
    .where('id', '=', big)
    .execute();
  await loadRollups(db, engine, {
    links: sql`select ${sql.lit(big)} as id`,
    linkCount: 1,
    clicks: CLICKS,
    firstDay,
    days: DAYS,
    slots: WIDE_SLOTS,
    isoCountries: true,
  });
  await loadRollups(db, engine, {
    links: sql`select id from links where account_id = ${sql.lit(accountId)} and id <> ${sql.lit(big)} and id % ${sql.lit(Math.max(1, Math.floor(LINKS / recent)))} = 0 limit ${sql.lit(recent)}`,
    linkCount: recent,
    clicks: RECENT_CLICKS,
    firstDay: addDays(today, -29),
    days: 30,
    slots: TOTALS_ONLY,
  });
  if (engine === 'postgres') {
    await sql`vacuum analyze`.execute(db);
    await sql`checkpoint`.execute(db);
  } else await sql`analyze`.execute(db);
  return { big, plain, space: spaceIds[0]!, firstDay, today };
}
