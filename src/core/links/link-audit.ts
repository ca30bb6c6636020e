import { changesOf } from '../audit/audit-changes.ts';
import type { AuditActor, NewAuditEntry } from '../audit/audit-entry.ts';
import type { AuditLog } from '../audit/audit-store.ts';
import type { Link } from './link.ts';

export type LinkAuditAction = 'link.created' | 'link.updated' | 'link.deleted';

/** One entry per link changed, each with its own fields' old and new values (secrets as "changed"). */
export async function auditLinks(
  log: AuditLog | undefined,
  workspaceId: number,
  actor: AuditActor,
  action: LinkAuditAction,
  changes: ReadonlyArray<{ before: Link | null; after: Link | null }>,
  at: number,
): Promise<void> {
  if (!log || changes.length === 0) return;
  const entries: NewAuditEntry[] = changes.map(({ before, after }) => ({
    workspaceId,
    actor,
    action,
    target: { type: 'link', id: (after ?? before)!.id },
    changes: changesOf(before, after),
    at,
  }));
  await log.record(entries);
}
