import type { UnitOfWork } from '../shared/unit-of-work.ts';
import { changesOf } from './audit-changes.ts';
import type { AuditActor } from './audit-entry.ts';
import type { AuditLog } from './audit-store.ts';

/** The unit a record's change and its audit entry commit in: the service's store on the unit's transaction, and the log. */
export type AuditedUnit<Store> = UnitOfWork<{ store: Store; audit?: AuditLog | undefined }>;

/** Without a database (unit tests' in-memory stores): the store as it is, no log. */
export function unaudited<Store>(store: Store): AuditedUnit<Store> {
  return (work) => work({ store });
}

/**
 * One entry for a change to one record of the workspace: `before` null a creation, `after` null a
 * deletion; `verb` names an update that has a word of its own (a domain `verified`).
 */
export async function recordChange(
  log: AuditLog | undefined,
  change: { workspaceId: number; actor: AuditActor; type: string; at: number; verb?: string },
  before: { id: number } | null,
  after: { id: number } | null,
): Promise<void> {
  if (!log) return;
  const verb = before === null ? 'created' : after === null ? 'deleted' : (change.verb ?? 'updated');
  const changes = changesOf(before, after);
  if (verb === 'updated' && Object.keys(changes).length === 0) return;
  await log.record([
    {
      workspaceId: change.workspaceId,
      actor: change.actor,
      action: `${change.type}.${verb}`,
      target: { type: change.type, id: (after ?? before)!.id },
      changes,
      at: change.at,
    },
  ]);
}
