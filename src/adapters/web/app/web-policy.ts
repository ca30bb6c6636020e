import type { FastifyReply, FastifyRequest } from 'fastify';
import { missingFor } from '../../../core/workspaces/policy.ts';
import { sendErrorPage } from './error-pages.ts';
import { viewerOf } from './view.ts';
import type { WebRouteRule } from './web-route-actions.ts';

/**
 * Checks the route's policy action against the person's role in the current workspace (the
 * same table as the API's, docs/design/web.md); a refusal is a 403 page naming the role it needs.
 * True when it answered.
 */
export function refuseByPolicy(
  request: FastifyRequest,
  reply: FastifyReply,
  rule: WebRouteRule,
  secret: string,
): boolean {
  if (rule === 'person' || rule === 'service' || rule === 'none') return false;
  const { workspace } = viewerOf(request);
  const missing = missingFor({ role: workspace.role, scopes: null }, rule);
  if (missing === null) return false;
  const needed = 'role' in missing ? missing.role : workspace.role;
  void sendErrorPage(request, reply, 'forbidden', secret, {
    role: { needed, have: workspace.role, workspace },
  });
  return true;
}
