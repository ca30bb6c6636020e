import type { AuditActor, AuditChanges } from '../audit/audit-entry.ts';
import type { AuditLog } from '../audit/audit-store.ts';

/** A person at the web app changing their own account: passwords and two-factor have no other door but the operator's CLI. */
export function selfThroughWeb(userId: number): AuditActor {
  return { userId, keyId: null, via: 'web' };
}

/**
 * One entry for a change to a person's own account, in their personal workspace's log (it
 * shares their id); secrets appear as "changed" in `changes`, never as a value or a hash.
 */
export async function recordAccountChange(
  log: AuditLog | undefined,
  change: { userId: number; actor: AuditActor; action: string; changes: AuditChanges; at: number },
): Promise<void> {
  await log?.record([
    {
      workspaceId: change.userId,
      actor: change.actor,
      action: change.action,
      target: { type: 'account', id: change.userId },
      changes: change.changes,
      at: change.at,
    },
  ]);
}
