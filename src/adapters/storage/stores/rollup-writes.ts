import type { Transaction } from 'kysely';
import type { Click } from '../../../core/clicks/click.ts';
import { RollupWindow } from '../../../core/stats/rollup-window.ts';
import { sortIncrements, uniqueIncrements } from '../../../core/stats/rollups.ts';
import type { Database } from '../schema.ts';
import type { ClickStatements } from './click-statements.ts';

/**
 * Adds a batch of clicks to the rollups, inside the caller's transaction (the one that writes
 * the click rows and links.clicks, so the counts can never disagree): summed per row first, so
 * each row is written once. The visitor marks that are new this day become `unique`
 * increments. Every mark and rollup row belongs to a link the caller has already locked, so two
 * writers never meet here first; the rows still go in key order, as one more guard.
 */
export async function writeRollups(trx: Transaction<Database>, statements: ClickStatements, clicks: readonly Click[]): Promise<void> {
  if (clicks.length === 0) return;
  const window = new RollupWindow();
  window.add(clicks);
  const { increments, marks } = window.drain();
  const fresh = await statements.insertMarks(trx, marks);
  await statements.upsertRollups(trx, sortIncrements([...increments, ...uniqueIncrements(fresh)]));
}

