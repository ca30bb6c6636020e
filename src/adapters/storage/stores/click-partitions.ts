import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../schema.ts';

/**
 * PostgreSQL's `clicks` is partitioned by month of `at` (UTC; migration 0035, docs/design/clicks.md):
 * `clicks_mYYYYMM` holds [the month's first instant, the next month's), and `clicks_default`
 * whatever row has no month of its own (rows written by hand). Partitions are made as the
 * writer meets a month (and the month after it, so the turn of a month finds it made), and
 * retention drops those wholly past CLICK_RETENTION_DAYS.
 */

/** A month as its first instant's year and month (0-based), UTC. */
export interface Month {
  year: number;
  month: number;
}

export const monthOf = (at: number): Month => {
  const d = new Date(at);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() };
};

export const nextMonth = ({ year, month }: Month): Month =>
  month === 11 ? { year: year + 1, month: 0 } : { year, month: month + 1 };

/** The month's partition: its name and bounds (epoch ms, the upper one excluded). */
export function partitionOf(m: Month): { name: string; from: number; to: number } {
  const next = nextMonth(m);
  return {
    name: `clicks_m${String(m.year).padStart(4, '0')}${String(m.month + 1).padStart(2, '0')}`,
    from: Date.UTC(m.year, m.month, 1),
    to: Date.UTC(next.year, next.month, 1),
  };
}

const PARTITION_NAME = /^clicks_m(\d{4})(\d{2})$/;

/** The month partitions there are, with their bounds, oldest first. */
export async function monthPartitions(
  db: Kysely<Database>,
): Promise<Array<{ name: string; from: number; to: number }>> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = to_regclass('clicks') order by c.relname`.execute(db);
  return rows.flatMap(({ name }) => {
    const m = PARTITION_NAME.exec(name);
    return m ? [partitionOf({ year: Number(m[1]), month: Number(m[2]) - 1 })] : [];
  });
}

// Two writers meeting a new month at once take turns making it (pg_advisory_xact_lock's key).
const PARTITION_LOCK = 0x6c707863; // "lpxc"

/**
 * Makes the partition of each month given that is not there yet, inside the caller's
 * transaction: a table of its own attached to `clicks` (ATTACH takes a lock that inserts and
 * reads do not wait for, where CREATE … PARTITION OF would lock out both), with the rows the
 * default partition holds for that month moved into it first.
 */
export async function ensureMonths(
  trx: Transaction<Database> | Kysely<Database>,
  months: readonly Month[],
): Promise<void> {
  const wanted = months.map(partitionOf);
  const missing = async () => {
    const { rows } = await sql<{ name: string }>`
      select name from unnest(${wanted.map((p) => p.name)}::text[]) as name where to_regclass(name) is null`.execute(
      trx,
    );
    return new Set(rows.map((r) => r.name));
  };
  if ((await missing()).size === 0) return;
  await sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`.execute(trx);
  const still = await missing();
  for (const p of wanted) {
    if (!still.has(p.name)) continue;
    const table = sql.id(p.name);
    await sql`create table ${table} (like clicks including defaults)`.execute(trx);
    await sql`with moved as (delete from clicks_default where at >= ${p.from} and at < ${p.to} returning *) insert into ${table} select * from moved`.execute(
      trx,
    );
    await sql`alter table clicks attach partition ${table} for values from (${sql.lit(p.from)}) to (${sql.lit(p.to)})`.execute(
      trx,
    );
  }
}
