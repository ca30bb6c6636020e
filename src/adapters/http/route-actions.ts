import type { FastifyInstance } from 'fastify';
import { authorize } from '../../core/workspaces/workspace-access.ts';
import type { Action } from '../../core/workspaces/policy.ts';

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
  // Listing shows the endpoints' addresses, which take sales: admins alone, as for changing them.
  integrations: { read: 'integrations.manage', write: 'integrations.manage' },
};

/**
 * The routes of workspaces and invitations, whose service checks the action itself, against
 * the member's role in the workspace of the path (docs/design/teams.md): the action it checks, written
 * here so that every route's scope is in the route table (the policy matrix test holds the
 * service to it). null: any live key of its user (their workspaces; an invitation sent to them).
 */
const SERVICE_ACTIONS: Record<string, Action | null> = {
  'GET /api/v1/workspaces': null,
  'POST /api/v1/workspaces': 'workspace.create',
  'GET /api/v1/workspaces/:id': 'workspace.read',
  'PUT /api/v1/workspaces/:id': 'workspace.settings',
  'PATCH /api/v1/workspaces/:id': 'workspace.settings',
  'DELETE /api/v1/workspaces/:id': 'workspace.delete',
  'GET /api/v1/workspaces/:id/members': 'members.read',
  'PUT /api/v1/workspaces/:id/members/:user_id': 'members.manage',
  'DELETE /api/v1/workspaces/:id/members/:user_id': 'members.manage',
  'POST /api/v1/workspaces/:id/invitations': 'invitations.manage',
  'GET /api/v1/workspaces/:id/invitations': 'invitations.manage',
  'DELETE /api/v1/workspaces/:id/invitations/:invitation_id': 'invitations.manage',
  'POST /api/v1/invitations/:token/accept': null,
  'POST /api/v1/workspaces/:id/api-keys': 'keys.own',
  'GET /api/v1/workspaces/:id/api-keys': 'keys.own',
  'DELETE /api/v1/workspaces/:id/api-keys/:key_id': 'keys.own',
  'GET /api/v1/workspaces/:id/audit': 'audit.read',
  'GET /api/v1/workspaces/:id/stats': 'stats.read',
};

/** Removing a member names their id; one's own id is leaving, which any member may (workspace.read). */
const OWN_ID_ACTIONS: Record<string, Action> = { 'DELETE /api/v1/workspaces/:id/members/:user_id': 'workspace.read' };

export interface PolicedRoute {
  method: string;
  url: string;
  /** The action the route needs; null: any live key of its user. */
  action: Action | null;
  /**
   * Who checks it: this hook, before the route runs; the workspaces service, per workspace of the
   * path; or, for the MCP endpoint, each tool's own route, which the tool calls with the same key.
   */
  checkedBy: 'route' | 'service' | 'tools';
  /** The action instead when the path's user_id is the key's own user (leaving a workspace). */
  ownId?: Action;
}

/**
 * The policy of an API route, from its method and path pattern (both the /api/v1 paths and the
 * seed's /{plural}/:id/destroy). Every route of the API has one: an unknown route fails the
 * server's start, so a new route cannot slip past the policy.
 */
export function policyOfRoute(method: string, url: string): PolicedRoute {
  const segments = url
    .replace(/^\/api\/v1\//, '/')
    .split('/')
    .filter(Boolean);
  const [head, second] = segments;
  const route = (action: Action): PolicedRoute => ({ method, url, action, checkedBy: 'route' });
  if (head === 'workspaces' || head === 'invitations') {
    const key = `${method} ${url}`;
    const action = SERVICE_ACTIONS[key];
    if (action === undefined)
      throw new Error(`no policy action for ${key}: name the one its service checks in SERVICE_ACTIONS`);
    const ownId = OWN_ID_ACTIONS[key];
    return { method, url, action, checkedBy: 'service', ...(ownId ? { ownId } : {}) };
  }
  // The MCP endpoint (docs/design/mcp.md) needs a live key; each tool calls its API route with that
  // key, and the route checks its own action there, so a key's role and scopes apply per tool.
  if (head === 'mcp' && segments.length === 1) return { method, url, action: null, checkedBy: 'tools' };
  if (head === 'account' && segments.length === 1 && (method === 'GET' || method === 'HEAD'))
    return route('account.read');
  if (head === 'links' && second === 'export') return route('links.export');
  if (head === 'links' && second === 'import') return route('links.import');
  // A preview replays stored clicks through a draft and changes nothing: a reader may ask.
  if (head === 'links' && segments[2] === 'rules' && segments[3] === 'preview') return route('links.read');
  const resource = head === undefined ? undefined : RESOURCES[head];
  if (!resource) throw new Error(`no policy action for ${method} ${url}`);
  return route(method === 'GET' || method === 'HEAD' ? resource.read : resource.write);
}

/**
 * Checks the policy before anything else of the route runs (validation included): a key its
 * role or scopes forbid learns that, not what its body lacks. `registry` receives every route
 * and its policy (the policy matrix test walks it).
 */
export function enforcePolicy(api: FastifyInstance, registry: PolicedRoute[]): void {
  const byRoute = new Map<string, PolicedRoute>();
  api.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'OPTIONS' || method === 'HEAD') continue;
      const policy = policyOfRoute(method, route.url);
      registry.push(policy);
      byRoute.set(`${method} ${route.url}`, policy);
    }
  });
  api.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (url === undefined) return;
    // HEAD is GET's: its policy is the GET route's.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const { action, checkedBy } = byRoute.get(`${method} ${url}`) ?? policyOfRoute(method, url);
    if (checkedBy === 'service' || action === null) return;
    authorize(
      { role: request.actor.role, scopes: request.actor.scopes, twoFactorMissing: request.actor.twoFactorMissing },
      action,
    );
  });
}
