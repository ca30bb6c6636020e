import { ForbiddenError, NotFoundError } from '../shared/errors.ts';
import { missingFor, type Action, type Grant, type Role } from './policy.ts';
import type { Actor, Standing, Workspace } from './workspace.ts';
import type { WorkspaceStore } from './workspace-store.ts';

/** The refusal of a member without two-factor in a workspace that requires it. */
const TWO_FACTOR_REQUIRED = 'This workspace requires two-factor sign-in: turn it on at /account/security first.';

/** Turns the policy's verdict into the closed set of errors. */
export function authorize(grant: Grant, action: Action): void {
  const missing = missingFor(grant, action);
  if (missing === null) return;
  if ('scope' in missing) throw new ForbiddenError(`This key lacks the scope ${missing.scope}.`);
  if ('twoFactor' in missing) throw new ForbiddenError(TWO_FACTOR_REQUIRED);
  throw new ForbiddenError(`This needs the role ${missing.role} or above in the workspace.`);
}

/**
 * What an actor may do in a workspace, read now (never cached): the check the workspaces,
 * members, invitations and keys services all make before they act (docs/design/teams.md).
 */
export class WorkspaceAccess {
  constructor(private readonly store: Pick<WorkspaceStore, 'standingOf' | 'find'>) {}

  /** A workspace the actor is not a member of does not exist for them; one they may see but not do this in is a 403. */
  async role(actor: Actor, workspaceId: number, action: Action): Promise<Role> {
    return (await this.standing(actor, workspaceId, action)).role;
  }

  async standing(actor: Actor, workspaceId: number, action: Action): Promise<Standing> {
    // A key whose user left its workspace does nothing anywhere; a key with scopes is a
    // delegation for its own workspace only (an unscoped key stands for its user in each).
    if (actor.home.role === null)
      throw new ForbiddenError('This key belongs to a workspace its user is no longer a member of.');
    if (actor.scopes !== null && workspaceId !== actor.home.workspaceId)
      throw new ForbiddenError('A key with scopes acts only in its own workspace.');
    const standing = await this.store.standingOf(workspaceId, actor.userId);
    if (standing === null) throw new NotFoundError('workspace');
    authorize({ role: standing.role, scopes: actor.scopes, twoFactorMissing: standing.twoFactorMissing }, action);
    return standing;
  }

  /** Whether the role, within the actor's scopes, allows the action (no error: for choosing what to show). */
  allows(actor: Actor, role: Role, action: Action): boolean {
    return missingFor({ role, scopes: actor.scopes }, action) === null;
  }

  async found(workspaceId: number): Promise<Workspace> {
    const workspace = await this.store.find(workspaceId);
    if (!workspace) throw new NotFoundError('workspace');
    return workspace;
  }
}
