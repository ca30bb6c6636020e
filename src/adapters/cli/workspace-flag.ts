import type { Account } from '../../core/accounts/account.ts';
import type { AccountsService } from '../../core/accounts/accounts-service.ts';
import { ValidationError } from '../../core/shared/errors.ts';
import type { Actor } from '../../core/workspaces/workspace.ts';
import type { WorkspacesService } from '../../core/workspaces/workspaces-service.ts';

/** The person `--email` names, acting in `--workspace ID` as a member there; null workspace: their personal one. */
export interface PersonInWorkspace {
  person: Account;
  /** The workspace's row; null when no --workspace was given (the person's own, as before teams). */
  workspace: Account | null;
  /** The person as the workspaces service knows an actor: every scope, bounded by their role there. */
  actor: Actor;
}

/**
 * Resolves `--email E [--workspace ID]`: the operator acts as that person in that workspace, so
 * the workspace policy (their role, its two-factor rule) bounds what the command may do there.
 */
export async function personIn(
  deps: { accounts: AccountsService; workspaces: WorkspacesService },
  email: string,
  workspace: string | undefined,
): Promise<PersonInWorkspace> {
  const person = await deps.accounts.requireByEmail(email);
  if (workspace === undefined) return { person, workspace: null, actor: actorIn(person, person.id, 'owner') };
  if (!/^[1-9]\d{0,15}$/.test(workspace))
    throw ValidationError.of('workspace', '--workspace must be a workspace id (GET /api/v1/workspaces lists them).');
  const id = Number(workspace);
  const standing = await deps.workspaces.standingOf(id, person.id);
  if (standing === null) throw ValidationError.of('workspace', `${person.email} is not a member of workspace ${id}.`);
  return { person, workspace: await deps.accounts.getAccount(id), actor: actorIn(person, id, standing.role) };
}

function actorIn(person: Account, workspaceId: number, role: Actor['home']['role']): Actor {
  return { userId: person.id, keyId: null, scopes: null, home: { workspaceId, role }, via: 'cli' };
}
