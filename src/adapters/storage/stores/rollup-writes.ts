import type { Transaction } from 'kysely';
import type { DrainedRollups } from '../../../core/stats/rollup-window.ts';
import { sortIncrements, uniqueIncrements } from '../../../core/stats/rollups.ts';
import type { Database } from '../schema.ts';
import type { ClickStatements } from './click-statements.ts';

/**
 * Writes what a RollupWindow summed, inside the caller's transaction, for the links the caller
 * has locked (`live`; a link deleted since its clicks were summed keeps none of them). The
 * visitor marks that are new this day become `unique` increments. Every mark and rollup row
 * belongs to a locked link, so two writers never meet here first; the rows still go in key
 * order, as one more guard.
 */
export async function writeRollups(trx: Transaction<Database>, statements: ClickStatements, rollups: DrainedRollups, live: ReadonlySet<number>): Promise<void> {
  const keep = <T extends { linkId: number }>(rows: T[]) => rows.every((r) => live.has(r.linkId)) ? rows : rows.filter((r) => live.has(r.linkId));
  const fresh = await statements.insertMarks(trx, keep(rollups.marks));
  await statements.upsertRollups(trx, sortIncrements([...keep(rollups.increments), ...uniqueIncrements(fresh)]));
}

/** The links a drained window touches, ascending: the order its transaction locks them in. */
export function linksOf({ increments, marks }: DrainedRollups): number[] {
  const ids = new Set<number>();
  for (const r of increments) ids.add(r.linkId);
  for (const m of marks) ids.add(m.linkId);
  return [...ids].sort((a, b) => a - b);
}
