import type { Kysely, Transaction } from 'kysely';
import type { Click } from '../../../core/clicks/click.ts';
import { rollupsOf, visitorMarksOf } from '../../../core/stats/rollup-window.ts';
import { sortIncrements, uniqueIncrements, type RollupIncrement } from '../../../core/stats/rollups.ts';
import type { Database } from '../schema.ts';

// 5 bound values a row: far under SQLite's 32 766 and PostgreSQL's 65 535 per statement.
const ROWS_PER_STATEMENT = 1000;

/**
 * Adds a batch of clicks to the rollups, inside the caller's transaction (the one that writes
 * the click rows and links.clicks, so the counts can never disagree). The visitor marks that
 * are new this day become `unique` increments.
 */
export async function writeRollups(trx: Transaction<Database> | Kysely<Database>, clicks: readonly Click[]): Promise<void> {
  if (clicks.length === 0) return;
  const marks = visitorMarksOf(clicks);
  const fresh: Array<{ linkId: number; day: string }> = [];
  for (let i = 0; i < marks.length; i += ROWS_PER_STATEMENT) {
    const inserted = await trx.insertInto('click_visitors')
      .values(marks.slice(i, i + ROWS_PER_STATEMENT).map((m) => ({ day: m.day, link_id: m.linkId, visitor: m.visitor })))
      .onConflict((oc) => oc.doNothing())
      .returning(['link_id', 'day'])
      .execute();
    for (const r of inserted) fresh.push({ linkId: Number(r.link_id), day: r.day });
  }
  await upsertRollups(trx, sortIncrements([...rollupsOf(clicks), ...uniqueIncrements(fresh)]));
}

/** count = count + increment, creating rows as needed; rows in key order, so writers lock alike. */
export async function upsertRollups(trx: Transaction<Database> | Kysely<Database>, rows: readonly RollupIncrement[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    await trx.insertInto('click_rollups')
      .values(rows.slice(i, i + ROWS_PER_STATEMENT).map((r) => ({
        link_id: r.linkId, dimension: r.dimension, day: r.day, value: r.value, count: r.count,
      })))
      .onConflict((oc) => oc.columns(['link_id', 'dimension', 'day', 'value'])
        .doUpdateSet((eb) => ({ count: eb('click_rollups.count', '+', eb.ref('excluded.count')) })))
      .execute();
  }
}
