import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WorkspaceOfUser } from '../../../core/workspaces/workspace.ts';
import type { WebContext } from './web-context.ts';
import { chosenWorkspaceOf, forgetWorkspace } from './workspace-choice.ts';

/**
 * The workspace this request acts in: the one the session chose while the person is still a
 * member of it, else their personal one (a removed member falls back at their next request).
 * The memberships are read on every request, never cached, so a role change counts at once.
 */
export async function currentWorkspace(
  ctx: WebContext,
  request: FastifyRequest,
  reply: FastifyReply,
  personId: number,
  sessionToken: string,
): Promise<{ workspace: WorkspaceOfUser; workspaces: WorkspaceOfUser[] }> {
  const workspaces = await ctx.workspaces.list({
    userId: personId,
    keyId: null,
    scopes: null,
    home: { workspaceId: personId, role: 'owner' },
  });
  const personal = workspaces.find((w) => w.id === personId) ?? personalFallback(workspaces, personId);
  const chosen = chosenWorkspaceOf(request, ctx.web.csrfSecret, sessionToken);
  if (chosen === null) return { workspace: personal, workspaces };
  const found = workspaces.find((w) => w.id === chosen);
  if (!found) forgetWorkspace(request, reply);
  return { workspace: found ?? personal, workspaces };
}

/** A person always owns their personal workspace; should the row be missing, the person's own id still scopes every read. */
function personalFallback(workspaces: WorkspaceOfUser[], personId: number): WorkspaceOfUser {
  return (
    workspaces[0] ?? {
      id: personId,
      name: '',
      personal: true,
      requireTwoFactor: false,
      timezone: 'UTC',
      createdAt: 0,
      role: 'owner',
    }
  );
}
