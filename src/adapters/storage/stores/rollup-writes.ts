import type { Transaction } from 'kysely';
import type { DrainedRollups } from '../../../core/stats/rollup-window.ts';
import { sortIncrements, sortMarks, uniqueIncrements } from '../../../core/stats/rollups.ts';
import type { Database } from '../schema.ts';
import type { ClickStatements } from './click-statements.ts';

/**
 * Writes what a RollupWindow summed, inside the caller's transaction, for the links the caller
 * has kept (`live`; a link deleted since its clicks were summed keeps none of them). The
 * visitor marks that are new this day become `unique` increments. Two such transactions can
 * hold the same links (the share lock of keepLinks), so they take their row locks in one
 * order: every mark in key order, then every rollup row in key order. Neither waits for a
 * batch's transaction, which writes no mark and no rollup.
 */
export async function writeRollups(trx: Transaction<Database>, statements: ClickStatements, rollups: DrainedRollups, live: ReadonlySet<number>): Promise<void> {
  const keep = <T extends { linkId: number }>(rows: T[]) => rows.every((r) => live.has(r.linkId)) ? rows : rows.filter((r) => live.has(r.linkId));
  const fresh = await statements.insertMarks(trx, sortMarks(keep(rollups.marks)));
  await statements.upsertRollups(trx, sortIncrements([...keep(rollups.increments), ...uniqueIncrements(fresh)]));
}

/** The links a drained window touches, ascending. */
export function linksOf({ increments, marks }: DrainedRollups): number[] {
  const ids = new Set<number>();
  for (const r of increments) ids.add(r.linkId);
  for (const m of marks) ids.add(m.linkId);
  return [...ids].sort((a, b) => a - b);
}
