import { sql, type Transaction } from 'kysely';
import type { WrittenClick } from './recovered-clicks.ts';
import type { Engine } from '../../storage/connect.ts';
import type { Database } from '../../storage/schema.ts';
import { int4Array, int8Array } from '../../storage/stores/pg-binary-arrays.ts';
import { leaseExpired } from '../../storage/stores/recovery-due.ts';

/** A batch recorded as written and not yet rolled up (migration 0013). */
export interface PendingBatch {
  id: number;
  firstClickId: number;
  lastClickId: number;
  /**
   * PostgreSQL: the batch's click ids when other writers' ids fall between them; null when the
   * range is the batch's alone (always on SQLite; on PostgreSQL nearly always, migration 0037).
   */
  clickIds: number[] | null;
  /** PostgreSQL: the time span of the batch's rows (null in a record made before migration 0039); SQLite: null. */
  atSpan?: { from: number; to: number } | null;
}

/** The statements of click recovery (docs/design/clicks.md), in each engine's form. */
export interface RecoveryStatements {
  /** Deletes these batches' records; answers those that were there (the others were claimed by a recovery). */
  release(trx: Transaction<Database>, ids: readonly number[]): Promise<PendingBatch[]>;
  /**
   * Deletes, and answers, up to `limit` records of batches whose writer's lease ran out before
   * `now` (or that has none); on PostgreSQL, records another recovery holds are passed over.
   */
  claimExpired(trx: Transaction<Database>, now: number, limit: number): Promise<PendingBatch[]>;
  /** The click rows of these batches, with their account's time zone. */
  writtenClicks(trx: Transaction<Database>, batches: readonly PendingBatch[]): Promise<WrittenClick[]>;
}

interface PendingRow {
  id: number;
  first_click_id: number;
  last_click_id: number;
}

/** PostgreSQL's, with its click ids as the array's text. */
type PgPendingRow = PendingRow & {
  click_ids: string | null;
  first_at: string | number | null;
  last_at: string | number | null;
};

interface ClickRow {
  link_id: number;
  account_id: number;
  at: number;
  timezone: string;
  country: string | null;
  city: string | null;
  browser: string | null;
  platform: string | null;
  device: string | null;
  language: string | null;
  referrer_host: string | null;
  is_bot: number | boolean;
  rule?: number | null;
  variant?: number | null;
  qr?: number | null;
}

const toBatch = (r: PendingRow): PendingBatch => ({
  id: Number(r.id),
  firstClickId: Number(r.first_click_id),
  lastClickId: Number(r.last_click_id),
  clickIds: null,
});

export const toWritten = (r: ClickRow): WrittenClick => ({
  linkId: Number(r.link_id),
  accountId: Number(r.account_id),
  at: Number(r.at),
  timeZone: r.timezone,
  country: r.country,
  city: r.city,
  browser: r.browser,
  platform: r.platform,
  device: r.device,
  language: r.language,
  referrerHost: r.referrer_host,
  isBot: Boolean(Number(r.is_bot)),
  rule: r.rule ?? null,
  variant: r.variant ?? null,
  qr: Number(r.qr ?? 0) === 1,
});

const CLICK_FIELDS = sql`c.link_id, c.account_id, c.at, a.timezone, c.country, c.city, c.browser, c.platform, c.device, c.language, c.referrer_host, c.is_bot, c.rule, c.variant, c.qr`;
/** A pending batch `p` whose writer's lease ran out (or that has none): due for recovery. */
/**
 * A PostgreSQL batch record, its click ids (read as the array's text) parsed only when asked for:
 * a window's release reads them only when a recovery claimed some of its batches meanwhile.
 */
function toPgBatch(r: PgPendingRow): PendingBatch {
  let ids: number[] | null | undefined;
  return {
    id: Number(r.id),
    firstClickId: Number(r.first_click_id),
    lastClickId: Number(r.last_click_id),
    atSpan: r.first_at === null || r.last_at === null ? null : { from: Number(r.first_at), to: Number(r.last_at) },
    get clickIds() {
      return (ids ??=
        r.click_ids === null ? null : r.click_ids === '{}' ? [] : r.click_ids.slice(1, -1).split(',').map(Number));
    },
  };
}

const pgRecovery: RecoveryStatements = {
  async release(trx, ids) {
    if (ids.length === 0) return [];
    const { rows } = await sql<PgPendingRow>`delete from click_batches_pending where id = any(${int8Array(ids)}::int8[])
      returning id, first_click_id, last_click_id, click_ids::text, first_at, last_at`.execute(trx);
    return rows.map(toPgBatch);
  },

  async claimExpired(trx, now, limit) {
    // SKIP LOCKED: instances recovering at once each take other batches rather than queue.
    // A materialized pick: joined as a subquery it could be scanned again per row and take more than `limit`.
    const { rows } = await sql<PgPendingRow>`with picked as materialized (
        select p.id from click_batches_pending p where ${leaseExpired(now)} order by p.id limit ${limit} for update of p skip locked)
      delete from click_batches_pending where id in (select id from picked)
      returning id, first_click_id, last_click_id, click_ids::text, first_at, last_at`.execute(trx);
    return rows.map(toPgBatch);
  },

  async writtenClicks(trx, batches) {
    if (batches.length === 0) return [];
    // Each batch's rows are found by its time span (BRIN on `at`, migration 0039) and its range
    // of ids; a batch whose ids are listed keeps only those. A record without a span (made
    // before 0039) is looked for over all time.
    const listed = batches.flatMap((b) => b.clickIds ?? []);
    const { rows } = await sql<ClickRow>`select ${CLICK_FIELDS} from unnest(
        ${int8Array(batches.map((b) => b.firstClickId))}::int8[], ${int8Array(batches.map((b) => b.lastClickId))}::int8[],
        ${int8Array(batches.map((b) => b.atSpan?.from ?? 0))}::int8[], ${int8Array(batches.map((b) => b.atSpan?.to ?? Number.MAX_SAFE_INTEGER))}::int8[],
        ${int4Array(batches.map((b) => (b.clickIds === null ? 0 : 1)))}::int4[]) as r(lo, hi, lo_at, hi_at, listed)
      join clicks c on c.at between r.lo_at and r.hi_at and c.id between r.lo and r.hi
      join accounts a on a.id = c.account_id
      where r.listed = 0 or c.id = any(${int8Array(listed)}::int8[])
      order by c.id`.execute(trx);
    return rows.map(toWritten);
  },
};

const sqliteRecovery: RecoveryStatements = {
  async release(trx, ids) {
    const released: PendingBatch[] = [];
    // One at a time: a batch's window holds a few dozen at most.
    for (const id of ids) {
      const row = await trx
        .deleteFrom('click_batches_pending')
        .where('id', '=', id)
        .returning(['id', 'first_click_id', 'last_click_id'])
        .executeTakeFirst();
      if (row) released.push(toBatch(row));
    }
    return released;
  },

  async claimExpired(trx, now, limit) {
    const { rows } = await sql<PendingRow>`delete from click_batches_pending where id in (
        select p.id from click_batches_pending p where ${leaseExpired(now)} order by p.id limit ${limit})
      returning id, first_click_id, last_click_id`.execute(trx);
    return rows.map(toBatch);
  },

  async writtenClicks(trx, batches) {
    const out: WrittenClick[] = [];
    for (const b of batches) {
      const { rows } = await sql<ClickRow>`select ${CLICK_FIELDS} from clicks c join accounts a on a.id = c.account_id
        where c.id between ${b.firstClickId} and ${b.lastClickId} order by c.id`.execute(trx);
      for (const r of rows) out.push(toWritten(r));
    }
    return out;
  },
};

export const recoveryStatements = (engine: Engine): RecoveryStatements =>
  engine === 'postgres' ? pgRecovery : sqliteRecovery;
