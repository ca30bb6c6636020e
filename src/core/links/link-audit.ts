import { changesOf } from '../audit/audit-changes.ts';
import type { AuditActor, NewAuditEntry } from '../audit/audit-entry.ts';
import type { AuditLog } from '../audit/audit-store.ts';
import type { TagStore } from '../tags/tag-store.ts';
import type { Link } from './link.ts';
import { stateOf, tagChange, type LinkHistory, type LinkState, type NewLinkVersion } from './link-history.ts';

export type LinkAuditAction = 'link.created' | 'link.updated' | 'link.deleted';

/** Where a link change is recorded, on the change's unit of work: the audit log and the links' history. */
export interface LinkRecords {
  audit?: AuditLog | undefined;
  history?: LinkHistory | undefined;
  /** The links' tags, read after the change for its version (absent: versions keep no tags). */
  tags?: TagStore | undefined;
}

/** Whether a change needs its links' state before it: someone records it. */
export function recordsChanges(records: LinkRecords): boolean {
  return records.audit !== undefined || records.history !== undefined;
}

/**
 * Every link write's one record (docs/design/history.md): an audit entry per link changed, each
 * with its own fields' old and new values (secrets as "changed"), and the link's next version
 * with its state, in the same unit as the change. A deletion has no version: the history goes
 * with the link. An update that changed nothing adds no version, unless it is a restore. A
 * version's tags are the link's after the change; their change is told against the link's last
 * version (tags are written beside the link, so `before` does not carry them).
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
  const history = records.history;
  if (!history) return;
  const kept = changes.flatMap(({ before, after }) => (after ? [{ before, after }] : []));
  if (kept.length === 0) return;
  const ids = kept.map(({ after }) => after.id);
  const tagged = records.tags ? await records.tags.tagsOfLinks(workspaceId, ids) : null;
  const last = tagged ? await history.latestStates(ids) : new Map<number, LinkState>();
  const versions: NewLinkVersion[] = [];
  for (const { before, after } of kept) {
    const state = stateOf(after, tagged ? (tagged.get(after.id) ?? []) : undefined);
    const { tags, ...fields } = state;
    const diff = changesOf(before ? stateOf(before) : null, fields);
    // A new link's tags are told from none, as its pixels are.
    const tagsChanged = tagChange(before ? last.get(after.id)?.tags : [], tags);
    if (tagsChanged) diff.tags = tagsChanged;
    if (before && restoredFrom === null && Object.keys(diff).length === 0) continue;
    versions.push({ linkId: after.id, accountId: workspaceId, at, actor, restoredFrom, changes: diff, state });
  }
  await history.append(versions);
}
