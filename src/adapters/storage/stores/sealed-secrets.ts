import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/**
 * Every column that holds a sealed secret, by its table and row key. A new one (an
 * integration's token) is listed here: the start's check, the move off the database key and a
 * rotation then cover it too (docs/design/secrets.md).
 */
const SEALED_COLUMNS = [
  // Forgetting a seed turns the person's two-factor off: their recovery codes go with it.
  { table: 'user_totp', key: 'user_id', column: 'secret_box', what: 'two-factor', alsoDelete: ['user_recovery_codes'] },
] as const;

type SealedColumn = (typeof SEALED_COLUMNS)[number];

export interface SealedRow {
  column: SealedColumn;
  key: number | string;
  sealed: string;
}

/** Every sealed secret stored. Their rows are few (one per person with two-factor, per integration). */
export async function readSealed(db: Kysely<Database>): Promise<SealedRow[]> {
  const rows: SealedRow[] = [];
  for (const column of SEALED_COLUMNS) {
    const found = await sql<{
      k: number | string;
      v: string;
    }>`select ${sql.ref(column.key)} as k, ${sql.ref(column.column)} as v from ${sql.table(column.table)}`.execute(db);
    for (const r of found.rows) rows.push({ column, key: r.k, sealed: r.v });
  }
  return rows;
}

/** Writes `next` in place of the row's secret unless it changed since it was read (then false). */
export async function replaceSealed(db: Kysely<Database>, row: SealedRow, next: string): Promise<boolean> {
  const { table, key, column } = row.column;
  const result = await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${next} where ${sql.ref(key)} = ${row.key} and ${sql.ref(column)} = ${row.sealed}`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** Deletes a secret no key opens any more, and the rows that only made sense with it (docs/operations.md, "The seal key"). */
export async function forgetSealed(db: Kysely<Database>, row: SealedRow): Promise<void> {
  const { table, key, column, alsoDelete } = row.column;
  for (const other of alsoDelete) await sql`delete from ${sql.table(other)} where ${sql.ref(key)} = ${row.key}`.execute(db);
  await sql`delete from ${sql.table(table)} where ${sql.ref(key)} = ${row.key} and ${sql.ref(column)} = ${row.sealed}`.execute(db);
}
