import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../../../core/workspaces/workspace.ts';
import { viewerOf } from '../../app/view.ts';

/** The signed-in person as the workspaces service's actor: no key, so no scopes; their role is read per workspace. */
export function actorOf(request: FastifyRequest): Actor {
  const { account } = viewerOf(request);
  return { userId: account.id, keyId: null, scopes: null, home: { workspaceId: account.id, role: 'owner' } };
}
