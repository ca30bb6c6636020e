import type { Transaction } from 'kysely';
import type { DrainedRollups } from '../../../core/stats/rollup-window.ts';
import { sortIncrements, uniqueIncrements } from '../../../core/stats/rollups.ts';
import type { Database } from '../schema.ts';
import type { ClickStatements } from './click-statements.ts';

// A window of heavy traffic holds hundreds of thousands of rows. Their statements are built one
// part at a time, each just before it is sent, so the thread that serves redirects gets turns
// in between rather than waiting for all of it at once. Parts of a list in key order are still
// in key order, one after another.
const ROWS_PER_STATEMENT = 25_000;

/**
 * Writes what a RollupWindow summed, inside the caller's transaction, for the links the caller
 * has kept (`live`; a link deleted since its clicks were summed keeps none of them). The
 * visitor marks that are new this day become `unique` increments. Two such transactions can
 * hold the same links (the share lock of keepLinks), so they take their row locks in one
 * order: every mark in key order (day, link, visitor), then every rollup row in key order (link,
 * dimension, day, value). Neither waits for a
 * batch's transaction, which writes no mark and no rollup.
 */
export async function writeRollups(trx: Transaction<Database>, statements: ClickStatements, rollups: DrainedRollups, live: ReadonlySet<number>): Promise<void> {
  const keep = <T extends { linkId: number }>(rows: T[]) => rows.every((r) => live.has(r.linkId)) ? rows : rows.filter((r) => live.has(r.linkId));
  const marks = keep(rollups.marks); // in key order, as drain() gives them
  const fresh: Array<{ linkId: number; day: string }> = [];
  for (let i = 0; i < marks.length; i += ROWS_PER_STATEMENT) {
    fresh.push(...await statements.insertMarks(trx, marks.slice(i, i + ROWS_PER_STATEMENT)));
  }
  const increments = sortIncrements([...keep(rollups.increments), ...uniqueIncrements(fresh)]);
  for (let i = 0; i < increments.length; i += ROWS_PER_STATEMENT) {
    await statements.upsertRollups(trx, increments.slice(i, i + ROWS_PER_STATEMENT));
  }
}

/** The links a drained window touches, ascending. */
export function linksOf({ increments, marks }: DrainedRollups): number[] {
  const ids = new Set<number>();
  for (const r of increments) ids.add(r.linkId);
  for (const m of marks) ids.add(m.linkId);
  return [...ids].sort((a, b) => a - b);
}
