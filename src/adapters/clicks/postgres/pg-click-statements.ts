import { sql, type Transaction } from 'kysely';
import type { Database } from '../../storage/schema.ts';
import type { RollupIncrement } from '../../../core/stats/rollups.ts';
import type { ClickStatements } from '../writer/click-statements.ts';
import { LinkClickCounts } from './link-click-counts.ts';
import { int4Array, int8Array, repeatedTextArray, textArray } from '../../storage/stores/pg-binary-arrays.ts';
import { ensureMonths } from '../../storage/stores/click-partitions.ts';
import type { PgClickArrays } from './pg-click-arrays.ts';

/**
 * PostgreSQL: one statement per table and batch, whatever its size. Each column travels as one
 * array parameter (in binary, pg-binary-arrays.ts) and `unnest` turns the arrays back into
 * rows, so the SQL text is the same for every batch (nothing to build or parse per row) and
 * the 65 535-parameter limit never applies. `unnest` yields the rows in array order, so they
 * are written, and locked, in the order given. The statements that write a row per click or
 * per rollup call it in the select list, where the arrays are walked in step (equal lengths
 * here) and each row goes straight on to the insert; in FROM, PostgreSQL stores all the rows in
 * a tuplestore first.
 */
export const pgClickStatements: ClickStatements = {
  async keepLinks(trx, ids) {
    // FOR KEY SHARE is the lock the foreign keys of clicks, click_rollups and click_visitors take
    // anyway: it blocks only a delete (or a change of id), so neither a batch nor a window's long
    // write of rollups holds up another or an edit of these links; a batch's update of its capped
    // links' counters takes their row locks, in id order.
    const { rows } = await sql<{ id: number; capped: boolean }>`
      select id, coalesce(expiration_clicks, 0) > 0 as capped from links where id = any(${int4Array(ids)}::int4[]) order by id for key share`.execute(
      trx,
    );
    return new Map(rows.map((r) => [r.id, r.capped]));
  },

  async updateLinks(trx, updates) {
    if (updates.length === 0) return;
    // The update's own plan may visit the rows in any order (a hash join scans links): the row
    // locks are taken first, in id order, the order every writer takes them in.
    await sql`select 1 from links where id = any(${int4Array(updates.map((u) => u.id))}::int4[]) order by id for no key update`.execute(
      trx,
    );
    await sql`
      update links set clicks = links.clicks + v.n, last_rotation = coalesce(v.r, links.last_rotation)
      from unnest(${int4Array(updates.map((u) => u.id))}::int4[], ${int8Array(updates.map((u) => u.clicks))}::int8[],
        ${int8Array(updates.map((u) => u.rotation))}::int8[]) as v(id, n, r)
      where links.id = v.id`.execute(trx);
  },

  countWindow(trx, updates) {
    // Nothing of the links' rows: a window's counts and positions wait in link_click_counts.
    return LinkClickCounts.add(trx, updates);
  },

  async insertMarks(trx, marks) {
    if (marks.length === 0) return [];
    const { rows } = await sql<{ link_id: number; day: string }>`
      insert into click_visitors (day, link_id, visitor)
      select unnest(${repeatedTextArray(marks.map((m) => m.day))}::text[]), unnest(${int4Array(marks.map((m) => m.linkId))}::int4[]),
        unnest(${textArray(marks.map((m) => m.visitor))}::text[])
      on conflict do nothing
      returning link_id, day`.execute(trx);
    return rows.map((r) => ({ linkId: r.link_id, day: r.day }));
  },

  async upsertRollups(trx, increments) {
    if (increments.length === 0) return;
    await sql`
      insert into click_rollups_recent (link_id, dimension, day, value, count)
      select unnest(${int4Array(increments.map((r) => r.linkId))}::int4[]), unnest(${repeatedTextArray(increments.map((r) => r.dimension))}::text[]),
        unnest(${repeatedTextArray(increments.map((r) => r.day))}::text[]), unnest(${repeatedTextArray(increments.map((r) => r.value))}::text[]),
        unnest(${int8Array(increments.map((r) => r.count))}::int8[])
      on conflict (link_id, dimension, day, value) do update set count = click_rollups_recent.count + excluded.count`.execute(
      trx,
    );
  },

  async addAccountDays(trx, increments) {
    if (increments.length === 0) return;
    const totals = increments.filter((t) => t.dimension === 'total');
    await sql`
      insert into account_click_days (account_id, day, count)
      select l.account_id, v.day, sum(v.n) from unnest(${int4Array(totals.map((t) => t.linkId))}::int4[],
        ${repeatedTextArray(totals.map((t) => t.day))}::text[], ${int8Array(totals.map((t) => t.count))}::int8[]) as v(link_id, day, n)
        join links l on l.id = v.link_id
      group by 1, 2 order by 1, 2
      on conflict (account_id, day) do update set count = account_click_days.count + excluded.count`.execute(trx);
    await addLinkDays(trx, increments);
  },
};

/** A window's `total` and `qr` increments into account_link_days (migration 0050), in key order. */
async function addLinkDays(trx: Transaction<Database>, increments: readonly RollupIncrement[]): Promise<void> {
  const isQr = increments.map((t) => (t.dimension === 'qr' ? 1 : 0));
  await sql`
    insert into account_link_days (account_id, day, link_id, clicks, qr)
    select l.account_id, v.day, v.link_id, coalesce(sum(v.n) filter (where v.q = 0), 0), coalesce(sum(v.n) filter (where v.q = 1), 0)
    from unnest(${int4Array(increments.map((t) => t.linkId))}::int4[], ${repeatedTextArray(increments.map((t) => t.day))}::text[],
      ${int8Array(increments.map((t) => t.count))}::int8[], ${int4Array(isQr)}::int4[]) as v(link_id, day, n, q)
      join links l on l.id = v.link_id
    group by 1, 2, 3 order by 1, 2, 3
    on conflict (account_id, day, link_id) do update
      set clicks = account_link_days.clicks + excluded.clicks, qr = account_link_days.qr + excluded.qr`.execute(trx);
  await addValueDays(trx, increments, isQr);
}

/**
 * The same increments into account_value_days (migration 0054), each under the link's values as
 * it is now: its tags (each), its space's name, its URL's UTM values and host, and `qr` (`qr`
 * for scans, `''` for every click); in key order, after the link days: the last locks a window
 * takes. The SQLite triggers write the same rows (0054-account-value-days.ts).
 */
async function addValueDays(
  trx: Transaction<Database>,
  increments: readonly RollupIncrement[],
  isQr: readonly number[],
): Promise<void> {
  const c = (value: string) => sql.raw(`cast(${value} as text) collate "C"`);
  const plain = (name: string, column: string) =>
    sql`select account_id, day, ${sql.lit(name)}, ${c(`coalesce(c.${column}, '')`)}, n from c where q = 0`;
  await sql`
    with c as (
      select l.id, l.account_id, v.day, v.n, v.q, l.space_id, l.utm_source, l.utm_medium, l.utm_campaign, l.destination_host
      from unnest(${int4Array(increments.map((t) => t.linkId))}::int4[], ${repeatedTextArray(increments.map((t) => t.day))}::text[],
        ${int8Array(increments.map((t) => t.count))}::int8[], ${int4Array(isQr)}::int4[]) as v(link_id, day, n, q)
        join links l on l.id = v.link_id),
    vals(account_id, day, name, value, n) as (
      select account_id, day, 'qr', ${c(`case when q = 1 then 'qr' else '' end`)}, n from c
      union all
      select c.account_id, c.day, 'tags', ${c(`coalesce(t.name, '')`)}, c.n from c
        left join (link_tags lt join tags t on t.id = lt.tag_id) on lt.link_id = c.id and t.account_id = c.account_id
        where c.q = 0
      union all
      select c.account_id, c.day, 'spaces', ${c(`coalesce(s.name, '')`)}, c.n from c left join spaces s on s.id = c.space_id
        where c.q = 0
      union all ${plain('utm_source', 'utm_source')}
      union all ${plain('utm_medium', 'utm_medium')}
      union all ${plain('utm_campaign', 'utm_campaign')}
      union all ${plain('destinations', 'destination_host')})
    insert into account_value_days (account_id, day, name, value, clicks)
    select account_id, day, name, value, sum(n) from vals group by 1, 2, 3, 4 order by 1, 2, 3, 4
    on conflict (account_id, day, name, value) do update set clicks = account_value_days.clicks + excluded.clicks`.execute(
    trx,
  );
}

/** A batch's record, with the transaction and the server process that made it (for pg-click-writes.ts's committed()). */
export interface PgRecord {
  id: number;
  /** txid_current(): txid_status tells whether the transaction committed. */
  xid: string;
  /** pg_backend_pid(): the server process whose transaction it is. */
  pid: number;
}

/**
 * Inserts a batch's click rows, already in binary arrays (pg-click-arrays.ts); with an `owner`,
 * also its record, answered with its transaction and server process.
 */
export async function insertClickArrays(
  trx: Transaction<Database>,
  rows: PgClickArrays,
  owner?: string,
): Promise<PgRecord | null> {
  if (rows.count === 0) return null;
  // The partitions of the batch's months, and of the month after its last, are there (docs/design/clicks.md).
  await ensureMonths(trx, rows.months);
  const [
    linkId,
    accountId,
    at,
    country,
    city,
    browser,
    platform,
    device,
    language,
    referrer,
    isBot,
    rule,
    variant,
    qr,
  ] = rows.columns;
  const unnested = sql`select unnest(${linkId}::int4[]), unnest(${accountId}::int4[]), unnest(${at}::int8[]),
      unnest(${country}::text[]), unnest(${city}::text[]), unnest(${browser}::text[]), unnest(${platform}::text[]),
      unnest(${device}::text[]), unnest(${language}::text[]), unnest(${referrer}::text[]), unnest(${isBot}::int4[]),
      unnest(${rule}::int4[]), unnest(${variant}::int4[]), unnest(${qr}::int4[])`;
  const insert = sql`insert into clicks (link_id, account_id, at, country, city, browser, platform, device, language, referrer_host, is_bot, rule, variant, qr) ${unnested}`;
  if (owner === undefined) {
    await insert.execute(trx);
    return null;
  }
  // The batch's record in the same statement: its ids never travel to this process and back.
  // They come from the block of ids this connection's sequence cache holds (migration 0037), so
  // they are nearly always one unbroken range, and the range alone is recorded (a batch that
  // crossed into a new block lists its ids), with the time span by which a recovery finds its
  // rows (migration 0039, docs/design/clicks.md).
  const { rows: recorded } = await sql<{
    id: string | number;
    xid: string;
    pid: number;
  }>`with ins as (${insert} returning id, at),
      span as (select min(id) as lo, max(id) as hi, count(*) as n, min(at) as lo_at, max(at) as hi_at from ins)
      insert into click_batches_pending (owner, first_click_id, last_click_id, click_ids, first_at, last_at)
      select ${owner}, lo, hi, case when hi - lo + 1 = n then null else (select array_agg(id order by id) from ins) end, lo_at, hi_at from span where n > 0
      returning id, txid_current()::text as xid, pg_backend_pid() as pid`.execute(trx);
  const r = recorded[0];
  return r ? { id: Number(r.id), xid: r.xid, pid: Number(r.pid) } : null;
}
