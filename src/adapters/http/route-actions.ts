import type { FastifyInstance } from 'fastify';
import { authorize } from '../../core/workspaces/workspaces-service.ts';
import type { Action } from '../../core/workspaces/policy.ts';

/** Routes whose service decides (per workspace of the path): the workspaces service. */
export const SERVICE_DECIDES = 'service' as const;

const RESOURCES: Record<string, { read: Action; write: Action }> = {
  links: { read: 'links.read', write: 'links.write' },
  // Tags and UTM templates are parts of links (issue 33): the links scopes cover them.
  tags: { read: 'links.read', write: 'links.write' },
  'utm-templates': { read: 'links.read', write: 'links.write' },
  pixels: { read: 'pixels.read', write: 'pixels.write' },
  spaces: { read: 'spaces.read', write: 'spaces.write' },
  domains: { read: 'domains.read', write: 'domains.write' },
  webhooks: { read: 'webhooks.read', write: 'webhooks.write' },
  stats: { read: 'stats.read', write: 'stats.read' },
  conversions: { read: 'stats.read', write: 'conversions.write' },
};

/**
 * The policy action of an API route, from its method and path pattern (both the /api/v1 paths
 * and the seed's /{plural}/:id/destroy). Every route of the API has one: an unknown route
 * fails the server's start, so a new route cannot slip past the policy.
 */
function actionOfRoute(method: string, url: string): Action | typeof SERVICE_DECIDES {
  const segments = url
    .replace(/^\/api\/v1\//, '/')
    .split('/')
    .filter(Boolean);
  const [head, second] = segments;
  if (head === 'workspaces' || head === 'invitations') return SERVICE_DECIDES;
  if (head === 'account' && segments.length === 1 && (method === 'GET' || method === 'HEAD')) return 'account.read';
  if (head === 'links' && second === 'export') return 'links.export';
  if (head === 'links' && second === 'import') return 'links.import';
  // A preview replays stored clicks through a draft and changes nothing: a reader may ask.
  if (head === 'links' && segments[2] === 'rules' && segments[3] === 'preview') return 'links.read';
  const resource = head === undefined ? undefined : RESOURCES[head];
  if (!resource) throw new Error(`no policy action for ${method} ${url}`);
  return method === 'GET' || method === 'HEAD' ? resource.read : resource.write;
}

export interface PolicedRoute {
  method: string;
  url: string;
  action: Action | typeof SERVICE_DECIDES;
}

/**
 * Checks the policy before anything else of the route runs (validation included): a key its
 * role or scopes forbid learns that, not what its body lacks. `registry` receives every route
 * and its action (the policy matrix test walks it).
 */
export function enforcePolicy(api: FastifyInstance, registry: PolicedRoute[]): void {
  api.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'OPTIONS' && method !== 'HEAD') registry.push({ method, url: route.url, action: actionOfRoute(method, route.url) });
    }
  });
  api.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (url === undefined) return;
    const action = actionOfRoute(request.method, url);
    if (action === SERVICE_DECIDES) return;
    authorize({ role: request.actor.role, scopes: request.actor.scopes, twoFactorMissing: request.actor.twoFactorMissing }, action);
  });
}
