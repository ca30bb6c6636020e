import type { Storage } from '../../src/adapters/storage/connect.ts';
import { pgClickStatements } from '../../src/adapters/clicks/postgres/pg-click-statements.ts';
import type { Dimension } from '../../src/core/stats/dimensions.ts';

export interface RollupRow {
  link_id: number;
  dimension: Dimension;
  day: string;
  value: string;
  count: number;
}

/**
 * Daily rollup rows written straight into click_rollups, with their accounts' days as the click
 * writer keeps them: SQLite's triggers add them, PostgreSQL's writer its own statement
 * (migration 0036).
 */
export async function insertRollups(
  storage: Pick<Storage, 'db' | 'engine'>,
  rows: readonly RollupRow[],
): Promise<void> {
  await storage.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('click_rollups')
      .values([...rows])
      .execute();
    if (storage.engine !== 'postgres') return;
    const totals = rows
      .filter((r) => r.dimension === 'total')
      .map((r) => ({ linkId: r.link_id, dimension: r.dimension, day: r.day, value: r.value, count: r.count }));
    await pgClickStatements.addAccountDays(trx, totals);
  });
}
