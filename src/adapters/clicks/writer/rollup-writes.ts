import type { Transaction } from 'kysely';
import type { RollupWindow } from '../window/rollup-window.ts';
import type { RollupIncrement } from '../../../core/stats/rollups.ts';
import type { Database } from '../../storage/schema.ts';
import type { ClickStatements, KeptLinks } from './click-statements.ts';

// A window of heavy traffic holds hundreds of thousands of rows. Their statements are built one
// part at a time, each just before it is sent, so the thread that serves redirects gets turns
// in between rather than waiting for all of it at once. Parts of a list in key order are still
// in key order, one after another. A part is small enough that making it (and the garbage it
// leaves) holds the redirect's thread for less than its latency target; PostgreSQL's cost per
// statement is small beside the rows' own.
const ROWS_PER_STATEMENT = 2_000;

/**
 * Writes what a RollupWindow summed, inside the caller's transaction, for the links the caller
 * has kept (`live`; a link deleted since its clicks were summed keeps none of them). The
 * visitor marks that are new this day become `unique` increments. Two such transactions can
 * hold the same links (the share lock of keepLinks), so they take their row locks in one
 * order: every mark in key order (day, link, visitor), then every rollup row in key order (link,
 * dimension, day, value), then their accounts' days in key order (account, day), then their
 * workspaces' link days in key order (account, day, link). Neither waits
 * for a batch's transaction, which writes no mark and no rollup.
 */
export async function writeRollups(
  trx: Transaction<Database>,
  statements: ClickStatements,
  window: RollupWindow,
  live: KeptLinks,
): Promise<void> {
  const unique = new Map<number, Map<string, number>>();
  for (const part of parts(window.orderedMarks(), live)) {
    for (const { linkId, day } of await statements.insertMarks(trx, part)) {
      const days = unique.get(linkId) ?? new Map<string, number>();
      days.set(day, (days.get(day) ?? 0) + 1);
      unique.set(linkId, days);
    }
  }
  const totals: RollupIncrement[] = [];
  for (const part of parts(window.orderedIncrements(unique), live)) {
    await statements.upsertRollups(trx, part);
    for (const row of part) if (row.dimension === 'total' || row.dimension === 'qr') totals.push(row);
  }
  await statements.addAccountDays(trx, totals);
}

/** The live links' rows, ROWS_PER_STATEMENT at a time, each part made only when it is asked for. */
function* parts<T extends { linkId: number }>(rows: Iterable<T>, live: KeptLinks): Generator<T[]> {
  let part: T[] = [];
  for (const row of rows) {
    if (!live.has(row.linkId)) continue;
    part.push(row);
    if (part.length === ROWS_PER_STATEMENT) {
      yield part;
      part = [];
    }
  }
  if (part.length > 0) yield part;
}
