import type { AuditActor, AuditChanges } from '../audit/audit-entry.ts';
import type { AuditLog } from '../audit/audit-store.ts';
import type { Actor } from './workspace.ts';

/** Who acts, for the audit log: a key is the API's door, no key the web app's session. */
function auditActorOf(actor: Actor): AuditActor {
  return { userId: actor.userId, keyId: actor.keyId, via: actor.via ?? (actor.keyId === null ? 'web' : 'api') };
}

/** One entry of the workspace's audit log, written in the change's unit (no log: nothing). */
export async function auditIn(
  tx: { audit?: AuditLog | undefined },
  at: number,
  change: { workspaceId: number; actor: Actor; action: string; target: { type: string; id: number } },
  changes: AuditChanges,
): Promise<void> {
  const { workspaceId, actor, action, target } = change;
  await tx.audit?.record([{ workspaceId, actor: auditActorOf(actor), action, target, changes, at }]);
}
