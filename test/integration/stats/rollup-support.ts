/**
 * The rollup suites' data (not a test file: the runner picks *.test.ts only): links with a few
 * values a day in every kind of dimension over sixteen months, the statistics answered over
 * fixed and random ranges, and the checks of the folded tables against the daily rows.
 */
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { MIGRATIONS, migrateToLatest } from '../../../src/adapters/storage/migrations/index.ts';
import { SqlStatsStore } from '../../../src/adapters/storage/stores/stats-store.ts';
import { SqlRollupMonths } from '../../../src/adapters/storage/stores/rollup-months.ts';
import type { Storage } from '../../../src/adapters/storage/connect.ts';
import type { Database } from '../../../src/adapters/storage/schema.ts';
import type { DayRange } from '../../../src/core/stats/range.ts';
import { addDays } from '../../../src/core/stats/range.ts';
import { quarterOf } from '../../../src/core/stats/rollup-months.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';
import { linkRow } from '../../support/link-rows.ts';

export const NOW = Date.parse('2026-04-10T00:00:00Z');
const FIRST_DAY = '2024-12-20';
const LAST_DAY = '2026-04-09';
export const LINKS = 5;

const RANGES: DayRange[] = [
  { from: FIRST_DAY, to: LAST_DAY }, // partial months at both ends, whole months and quarters between
  { from: '2025-12-01', to: '2026-02-28' }, // whole months only, over a year's end
  { from: '2025-12-15', to: '2026-01-31' }, // a partial month, then a whole one
  { from: '2026-01-10', to: '2026-01-20' }, // within a month
  { from: '2026-02-01', to: '2026-04-09' }, // whole months, then the month being written
  { from: '2025-01-01', to: '2025-12-31' }, // whole quarters only
  { from: '2025-03-31', to: '2025-10-01' }, // a day either side of two whole quarters
  { from: '2025-02-01', to: '2026-03-31' }, // months, quarters over a year's end, the last one folded last
  ...randomRanges(6),
];

/** Ranges from a fixed seed (the same every run), within the rows and a little beyond them. */
function randomRanges(n: number): DayRange[] {
  let seed = 0x5eed;
  const random = (max: number): number => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed % max;
  };
  return Array.from({ length: n }, () => {
    const from = addDays('2024-12-01', random(480));
    return { from, to: addDays(from, random(500)) };
  });
}

/** A few values a day in every kind of dimension, differing by link and day, some days without any. */
function dailyRows(linkId: number): Array<[number, string, string, string, number]> {
  const rows: Array<[number, string, string, string, number]> = [];
  for (let day = FIRST_DAY, n = 0; day <= LAST_DAY; day = addDays(day, 1), n++) {
    if ((n + linkId) % 5 === 0) continue;
    const base = ((n * 7 + linkId * 3) % 11) + 1;
    rows.push([linkId, 'total', day, '', base * 3]);
    rows.push([linkId, 'unique', day, '', base]);
    rows.push([linkId, 'bot', day, '', n % 3]);
    rows.push([linkId, 'hour', day, String(n % 24).padStart(2, '0'), base * 3]);
    rows.push([linkId, 'country', day, ['FR', 'DE', ''][n % 3]!, base * 2]);
    rows.push([linkId, 'country', day, 'SE', base]);
    rows.push([
      linkId,
      'referrer',
      day,
      ['Alpha.example', 'beta.example', 'gamma.example', ''][(n + linkId) % 4]!,
      base * 3,
    ]);
  }
  return rows.filter((r) => r[4] > 0);
}

async function insertDaily(db: Kysely<Database>, rows: Array<[number, string, string, string, number]>): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows
      .slice(i, i + 500)
      .map(([link_id, dimension, day, value, count]) => ({ link_id, dimension, day, value, count }));
    await db.insertInto('click_rollups').values(chunk).execute();
  }
}

/** Everything the statistics answer for a link over every range. */
export async function answers(store: SqlStatsStore, linkId: number): Promise<unknown[]> {
  const all: unknown[] = [];
  for (const range of RANGES) {
    all.push(
      await store.summary(linkId, range),
      await store.perDay(linkId, range),
      sorted(await store.counts(linkId, 'hour', range)),
      await store.breakdown(linkId, 'country', range, { order: 'max', page: { page: 1, perPage: 2 } }),
      await store.breakdown(linkId, 'country', range, { order: 'min', page: { page: 2, perPage: 2 } }),
      await store.breakdown(linkId, 'country', range, { order: 'value', page: { page: 9, perPage: 2 } }),
      await store.breakdown(linkId, 'referrer', range, { order: 'max', search: 'ALPHA', page: null }),
      await store.breakdown(linkId, 'referrer', range, { order: 'value', page: null }),
    );
  }
  return all;
}

const sorted = (rows: Array<{ value: string | null; count: number }>) =>
  [...rows].sort((a, b) => String(a.value).localeCompare(String(b.value)));

export async function monthRows(
  db: Kysely<Database>,
  table: 'click_rollup_months' | 'click_rollup_quarters' = 'click_rollup_months',
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A link's quarterly rows are the sums of its daily rows over every quarter wholly folded, and only those. */
export async function assertQuartersAreTheirDays(
  db: Kysely<Database>,
  linkId: number,
  foldedBefore: string,
): Promise<void> {
  const key = (dimension: string, quarter: string, value: string) => `${dimension} ${quarter} ${value}`;
  const fromDays = new Map<string, number>();
  const days = await db
    .selectFrom('click_rollups')
    .select(['dimension', 'day', 'value', 'count'])
    .where('link_id', '=', linkId)
    .execute();
  for (const r of days) {
    const quarter = quarterOf(r.day.slice(0, 7));
    if (quarter >= quarterOf(foldedBefore)) continue;
    const k = key(r.dimension, quarter, r.value);
    fromDays.set(k, (fromDays.get(k) ?? 0) + Number(r.count));
  }
  const quarters = await db
    .selectFrom('click_rollup_quarters')
    .select(['dimension', 'quarter', 'value', 'count'])
    .where('link_id', '=', linkId)
    .execute();
  const folded = new Map(quarters.map((r) => [key(r.dimension, r.quarter, r.value), Number(r.count)]));
  assert.deepEqual([...folded].sort(), [...fromDays].sort(), `link ${linkId}'s quarters folded before ${foldedBefore}`);
}

/** Every migration before 0034: a database as the release before the quarterly rollups left it. */
export async function migrateBeforeQuarters(storage: Storage): Promise<void> {
  const ordered = Object.entries(MIGRATIONS).sort(([a], [b]) => a.localeCompare(b));
  for (const [name, m] of ordered) if (name < '0034') await m.up(storage.db as Kysely<unknown>, storage.engine);
}

export async function withRollups(
  engine: 'sqlite' | 'postgres',
  fn: (storage: Storage, expected: unknown[][]) => Promise<void>,
  migrate: (storage: Storage) => Promise<unknown> = (storage) => migrateToLatest(storage.db, engine),
): Promise<void> {
  await withEmptyStorage(engine, async (storage) => {
    await migrate(storage);
    await sql`insert into accounts (name, email, timezone, created_at) values ('a', 'a@example.com', 'UTC', 0)`.execute(
      storage.db,
    );
    for (let i = 1; i <= LINKS; i++)
      await storage.db
        .insertInto('links')
        .values(linkRow(1, `l${i}`))
        .execute();
    for (let i = 1; i <= LINKS; i++) await insertDaily(storage.db, dailyRows(i));
    // The reference: every answer summed from the daily rows by the database (no month folded, no day settled to keep).
    const unfolded = new SqlStatsStore(storage.db, engine, new SqlRollupMonths(storage.db, engine), { now: () => 0 });
    const expected: unknown[][] = [];
    for (let i = 1; i <= LINKS; i++) expected.push(await answers(unfolded, i));
    await fn(storage, expected);
  });
}
