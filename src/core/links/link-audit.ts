import { changesOf } from '../audit/audit-changes.ts';
import type { AuditActor, NewAuditEntry } from '../audit/audit-entry.ts';
import type { AuditLog } from '../audit/audit-store.ts';
import type { Link } from './link.ts';
import { stateOf, type LinkHistory, type NewLinkVersion } from './link-history.ts';

export type LinkAuditAction = 'link.created' | 'link.updated' | 'link.deleted';

/** Where a link change is recorded, on the change's unit of work: the audit log and the links' history. */
export interface LinkRecords {
  audit?: AuditLog | undefined;
  history?: LinkHistory | undefined;
}

/** Whether a change needs its links' state before it: someone records it. */
export function recordsChanges(records: LinkRecords): boolean {
  return records.audit !== undefined || records.history !== undefined;
}

/**
 * Every link write's one record (docs/design/history.md): an audit entry per link changed, each
 * with its own fields' old and new values (secrets as "changed"), and the link's next version
 * with its state, in the same unit as the change. A deletion has no version: the history goes
 * with the link. An update that changed nothing adds no version, unless it is a restore.
 */
export async function auditLinks(
  records: LinkRecords,
  workspaceId: number,
  actor: AuditActor,
  action: LinkAuditAction,
  changes: ReadonlyArray<{ before: Link | null; after: Link | null }>,
  at: number,
  restoredFrom: number | null = null,
): Promise<void> {
  if (changes.length === 0) return;
  if (records.audit) {
    const entries: NewAuditEntry[] = changes.map(({ before, after }) => ({
      workspaceId,
      actor,
      action,
      target: { type: 'link', id: (after ?? before)!.id },
      changes: changesOf(before, after),
      at,
    }));
    await records.audit.record(entries);
  }
  if (!records.history) return;
  const versions: NewLinkVersion[] = [];
  for (const { before, after } of changes) {
    if (!after) continue;
    const state = stateOf(after);
    const diff = changesOf(before ? stateOf(before) : null, state);
    if (before && restoredFrom === null && Object.keys(diff).length === 0) continue;
    versions.push({ linkId: after.id, accountId: workspaceId, at, actor, restoredFrom, changes: diff, state });
  }
  await records.history.append(versions);
}
