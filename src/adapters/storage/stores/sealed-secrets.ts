import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { AuditActor, AuditChanges } from '../../../core/audit/audit-entry.ts';
import { recordAccountChange } from '../../../core/accounts/account-audit.ts';
import { SqlAuditLog } from './audit-store.ts';

/** A seed forgotten is two-factor turned off, said as the person's own turning off says it (core/security/two-factor-service.ts). */
const TWO_FACTOR_FORGOTTEN: { action: string; changes: AuditChanges } = {
  action: 'account.two_factor_disabled',
  changes: { two_factor: [true, false], recovery_codes: 'changed' },
};

/** An integration forgotten is removed, said in its workspace's log as a removal through the API or web app is (core/integrations). */
const INTEGRATION_FORGOTTEN = { action: 'integration.removed', changes: { secret: 'changed' } as AuditChanges };

/** An integration's row: both its sealed columns go with it, and the events it took. */
const INTEGRATION = {
  table: 'integrations',
  key: 'id',
  what: 'integration',
  alsoDelete: [{ table: 'integration_events', key: 'integration_id' }],
  inUse: 'id',
  log: 'workspace',
  workspace: 'account_id',
  forgotten: INTEGRATION_FORGOTTEN,
} as const;

/**
 * Every column that holds a sealed secret, by its table and row key: the start's check, the
 * move off the database key, a rotation and forgetting lost keys cover each of them
 * (docs/design/secrets.md). Forgetting a secret deletes its row and `alsoDelete`'s, and writes
 * the entry `forgotten` in the person's log (`log: 'account'`) or the row's workspace's.
 */
const SEALED_COLUMNS = [
  // Forgetting a seed turns the person's two-factor off: their recovery codes go with it, and
  // their log says so when it was on (`inUse`), as when they turn it off themselves.
  {
    table: 'user_totp',
    key: 'user_id',
    column: 'secret_box',
    what: 'two-factor',
    alsoDelete: [{ table: 'user_recovery_codes', key: 'user_id' }],
    inUse: 'confirmed_at',
    log: 'account',
    workspace: null,
    forgotten: TWO_FACTOR_FORGOTTEN,
  },
  // An integration is of no use without its signing secret, nor without its token (its address).
  { ...INTEGRATION, column: 'secret_box' },
  { ...INTEGRATION, column: 'token_box' },
] as const;

type SealedColumn = (typeof SEALED_COLUMNS)[number];

export interface SealedRow {
  column: SealedColumn;
  key: number | string;
  sealed: string;
  /** The secret is in use (a two-factor seed confirmed), not a step left half-done. */
  inUse: boolean;
  /** The workspace whose log a forgetting is written in (`log: 'workspace'`), else null. */
  workspace: number | null;
}

/** Every sealed secret stored. Their rows are few (one per person with two-factor, per integration). */
export async function readSealed(db: Kysely<Database>): Promise<SealedRow[]> {
  const rows: SealedRow[] = [];
  for (const column of SEALED_COLUMNS) {
    const workspace = column.workspace === null ? sql`null` : sql.ref(column.workspace);
    const found = await sql<{
      k: number | string;
      v: string;
      u: unknown;
      w: number | string | null;
    }>`select ${sql.ref(column.key)} as k, ${sql.ref(column.column)} as v, ${sql.ref(column.inUse)} as u, ${workspace} as w from ${sql.table(column.table)}`.execute(
      db,
    );
    for (const r of found.rows)
      rows.push({ column, key: r.k, sealed: r.v, inUse: r.u !== null, workspace: r.w === null ? null : Number(r.w) });
  }
  return rows;
}

/** Writes `next` in place of the row's secret unless it changed since it was read (then false). */
export async function replaceSealed(db: Kysely<Database>, row: SealedRow, next: string): Promise<boolean> {
  const { table, key, column } = row.column;
  const result =
    await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${next} where ${sql.ref(key)} = ${row.key} and ${sql.ref(column)} = ${row.sealed}`.execute(
      db,
    );
  return Number(result.numAffectedRows ?? 0) > 0;
}

/**
 * Deletes a secret no key opens any more, and the rows that only made sense with it, with the
 * person's audit entry (docs/operations.md, "The seal key"); false when the row changed since it
 * was read. Run inside the caller's transaction: the entry commits with the deletion.
 */
export async function forgetSealed(
  db: Kysely<Database>,
  row: SealedRow,
  by: { actor: AuditActor; at: number },
): Promise<boolean> {
  const { table, key, column, alsoDelete, forgotten, log } = row.column;
  const deleted =
    await sql`delete from ${sql.table(table)} where ${sql.ref(key)} = ${row.key} and ${sql.ref(column)} = ${row.sealed}`.execute(
      db,
    );
  if (Number(deleted.numAffectedRows ?? 0) === 0) return false;
  for (const other of alsoDelete)
    await sql`delete from ${sql.table(other.table)} where ${sql.ref(other.key)} = ${row.key}`.execute(db);
  if (log === 'workspace' && row.workspace !== null) {
    await new SqlAuditLog(db).record([
      {
        workspaceId: row.workspace,
        actor: by.actor,
        action: forgotten.action,
        target: { type: 'integration', id: Number(row.key) },
        changes: forgotten.changes,
        at: by.at,
      },
    ]);
  } else if (row.inUse) {
    await recordAccountChange(new SqlAuditLog(db), {
      userId: Number(row.key),
      actor: by.actor,
      action: forgotten.action,
      changes: forgotten.changes,
      at: by.at,
    });
  }
  return true;
}
