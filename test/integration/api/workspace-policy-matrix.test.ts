// The role × action matrix (issue 33), generated from the policy table over every API route:
// the four roles × a key without scopes, with only the needed scope, and with every scope but it.
// Each answer is a 403 naming what is missing exactly when the policy says so. Every route names
// the scope it needs but the documented few, and a key with one scope is refused every route
// outside it (docs/api.md §19); both engines.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import {
  ACTIONS,
  POLICY,
  ROLES,
  SCOPES,
  roleAllows,
  type Action,
  type Role,
  type Scope,
} from '../../../src/core/workspaces/policy.ts';
import type { PolicedRoute } from '../../../src/adapters/http/route-actions.ts';
import { addMember, makeKey, makeWorkspace, type Person } from './workspaces-support.ts';
import { routeTable } from '../../support/route-table.ts';

const MISSING_ID = '2147480000';

interface RoleKeys {
  all: string;
  only: Map<Scope, string>;
  allBut: Map<Scope, string>;
}

/** A workspace with a member of each role, each with the three kinds of key. */
async function cast(
  h: Harness,
): Promise<{ workspaceId: number; people: Map<Role, Person>; keys: Map<Role, RoleKeys> }> {
  const owner = await h.account();
  const workspace = await makeWorkspace(h, owner, 'Matrix');
  const people = new Map<Role, Person>([['owner', owner]]);
  for (const role of ROLES.filter((r) => r !== 'owner')) {
    const person = await h.account();
    await addMember(h, owner, workspace.id, person, role);
    people.set(role, person);
  }
  const keys = new Map<Role, RoleKeys>();
  for (const [role, person] of people) {
    const only = new Map<Scope, string>();
    const allBut = new Map<Scope, string>();
    for (const scope of SCOPES) {
      only.set(scope, await makeKey(h, person, workspace.id, [scope]));
      allBut.set(
        scope,
        await makeKey(
          h,
          person,
          workspace.id,
          SCOPES.filter((s) => s !== scope),
        ),
      );
    }
    keys.set(role, { all: await makeKey(h, person, workspace.id), only, allBut });
  }
  return { workspaceId: workspace.id, people, keys };
}

interface Case {
  method: string;
  path: string;
  action: Action;
  json?: unknown;
}

async function check(
  h: Harness,
  c: Case,
  role: Role,
  key: string,
  forbiddenBy: 'role' | 'scope' | null,
): Promise<void> {
  const write = c.method !== 'GET' && c.method !== 'DELETE';
  const res = await h.request(c.method, c.path, { key, json: c.json ?? (write ? {} : undefined) });
  const what = `${c.method} ${c.path} (${c.action}) as ${role}`;
  if (forbiddenBy === null) {
    assert.ok(res.status !== 403 && res.status < 500, `${what}: allowed, got ${res.status} ${res.text}`);
    return;
  }
  assert.equal(res.status, 403, `${what}: forbidden by ${forbiddenBy}, got ${res.status} ${res.text}`);
  const rule = POLICY[c.action];
  const named = forbiddenBy === 'role' ? `role ${rule.role}` : `scope ${String(rule.scope)}`;
  assert.ok(res.body.message.includes(named), `${what}: "${res.body.message}" names ${named}`);
  assert.equal(res.body.status, 403);
}

async function walk(h: Harness, cases: Case[], keys: Map<Role, RoleKeys>): Promise<void> {
  for (const c of cases) {
    const rule = POLICY[c.action];
    for (const role of ROLES) {
      const k = keys.get(role)!;
      const byRole = roleAllows(role, c.action) ? null : 'role';
      await check(h, c, role, k.all, byRole);
      if (rule.scope === null) continue;
      await check(h, c, role, k.only.get(rule.scope)!, byRole);
      await check(h, c, role, k.allBut.get(rule.scope)!, byRole ?? 'scope');
    }
  }
}

/**
 * Routes any live key of its user may take, whatever its scopes (docs/api.md §19). The MCP endpoint
 * is one: each of its tools is checked by the route it calls (mcp.test.ts walks the refusals).
 */
const NO_SCOPE = new Set([
  'GET /api/v1/account',
  'GET /api/v1/mcp',
  'POST /api/v1/mcp',
  'DELETE /api/v1/mcp',
  'GET /api/v1/workspaces',
  'GET /api/v1/workspaces/:id',
  'POST /api/v1/invitations/:token/accept',
]);
/** Leaving: removing oneself needs no scope (removing another needs workspace:admin). */
const LEAVE = 'DELETE /api/v1/workspaces/:id/members/:user_id';
/** Outside the API: no key at all (docs/api.md §11, Conversions). */
const KEYLESS = ['/health', '/c/:click(^[A-Za-z0-9_-]{1,64}).gif'];
/**
 * The /api paths outside the policed scope: the public OpenAPI document (docs/api.md, its opening) and
 * the integrations' receivers, which a sender's signature opens (docs/api.md, Integrations).
 */
const PUBLIC_API = ['GET /api/openapi.json', 'POST /api/integrations/:token'];

/** What a workspace route's schema needs to reach its service (validation comes before it there). */
const BODIES: Record<string, unknown> = {
  'POST /api/v1/workspaces': { name: 'Made in the matrix' },
  'PUT /api/v1/workspaces/:id/members/:user_id': { role: 'viewer' },
  'POST /api/v1/workspaces/:id/invitations': { email: 'matrix@example.com', role: 'viewer' },
  'POST /api/v1/workspaces/:id/api-keys': { name: 'Matrix key', scopes: ['workspace:admin'] },
};

const scopeOf = (action: Action | null): Scope | null => (action === null ? null : POLICY[action].scope);

/** A route's path with ids: the matrix workspace and a member other than the key's user for a workspace route, a missing id elsewhere. */
/** Queries a route's schema requires, so that a request reaches the route's policy. */
const QUERIES: Record<string, string> = { '/api/v1/workspaces/:id/stats': '?name=clicks' };

function pathOf(route: PolicedRoute, workspaceId: number, memberId: number): string {
  const query = QUERIES[route.url] ?? '';
  if (route.checkedBy !== 'service') return route.url.replace(/:[a-z_]+/g, MISSING_ID) + query;
  return (
    route.url
      .replace(':id', String(workspaceId))
      .replace(':user_id', String(memberId))
      .replace(/:[a-z_]+/g, MISSING_ID) + query
  );
}

onEachEngine('API policy matrix', (h) => {
  let setup: Awaited<ReturnType<typeof cast>>;
  before(async () => {
    setup = await cast(h());
  });
  const registry = () => h().server.app.policedRoutes;

  test('every route the policy table guards answers as the table says, for each role and key', async () => {
    const routes = registry().filter((r) => r.checkedBy === 'route' && r.action !== null);
    assert.ok(routes.length > 40, `the registry holds the API's routes (${routes.length})`);
    const cases = routes.map((r) => ({
      method: r.method,
      path: r.url.replace(/:[a-z_]+/g, MISSING_ID),
      action: r.action!,
    }));
    await walk(h(), cases, setup.keys);
  });

  test("the workspace's own routes answer as the route table says its service checks, for each role and key", async () => {
    // Acted on in workspaces.test.ts, where their effects are looked at: deleting a workspace,
    // removing a member, every key of it, owners' roles.
    const destructive = new Set(['DELETE /api/v1/workspaces/:id']);
    const routes = registry().filter(
      (r) => r.checkedBy === 'service' && r.action !== null && !destructive.has(`${r.method} ${r.url}`),
    );
    assert.ok(routes.length >= 12, `the workspace routes are in the registry (${routes.length})`);
    const viewer = setup.people.get('viewer')!.id;
    const cases: Case[] = routes.map((r) => {
      const key = `${r.method} ${r.url}`;
      // Removing a member that is not one: the policy answers before the 404.
      const member = key === LEAVE ? Number(MISSING_ID) : viewer;
      return { method: r.method, path: pathOf(r, setup.workspaceId, member), action: r.action!, json: BODIES[key] };
    });
    cases.push({
      method: 'GET',
      path: `/api/v1/workspaces/${setup.workspaceId}/audit?format=csv`,
      action: 'audit.read',
    });
    await walk(h(), cases, setup.keys);
    const elsewhere: Action[] = ['workspace.delete', 'keys.all', 'owners.manage'];
    const covered = new Set<Action>([
      ...registry().flatMap((r) => (r.action === null ? [] : [r.action])),
      ...cases.map((c) => c.action),
      ...elsewhere,
    ]);
    assert.deepEqual(
      ACTIONS.filter((a) => !covered.has(a)),
      [],
      'every action of the table is walked',
    );
  });

  test('every route names the scope it needs, but the documented few; the keyless ones are outside the API', () => {
    const unscoped = registry()
      .filter((r) => scopeOf(r.action) === null)
      .map((r) => `${r.method} ${r.url}`);
    assert.deepEqual(unscoped.sort(), [...NO_SCOPE].sort(), 'routes without a scope: only the documented ones');
    const ownIds = registry().filter((r) => r.ownId !== undefined);
    assert.deepEqual(
      ownIds.map((r) => [`${r.method} ${r.url}`, scopeOf(r.action), scopeOf(r.ownId!)]),
      [[LEAVE, 'workspace:admin', null]],
      'only leaving, of the routes that name a member, needs no scope',
    );
    assert.equal(POLICY['members.read'].scope, 'workspace:admin');
    for (const url of KEYLESS) {
      assert.ok(h().server.app.hasRoute({ method: 'GET', url }), url);
      assert.ok(!registry().some((r) => r.url === url), `${url} takes no key`);
    }
  });

  test('every /api route of the route table is in the policy registry, but the public document', () => {
    const policed = new Set(registry().map((r) => `${r.method} ${r.url}`));
    const apiRoutes = routeTable(h().server.app)
      .filter((r) => r.path.startsWith('/api/'))
      // HEAD is GET's (the policy hook answers it with the GET route's policy); OPTIONS is the preflight's.
      .flatMap((r) => r.methods.filter((m) => m !== 'OPTIONS').map((m) => `${m === 'HEAD' ? 'GET' : m} ${r.path}`))
      .filter((route) => !PUBLIC_API.includes(route));
    assert.ok(apiRoutes.length > 40, `the route table holds the API's routes (${apiRoutes.length})`);
    assert.deepEqual(
      [...new Set(apiRoutes.filter((route) => !policed.has(route)))],
      [],
      'routes under /api outside the policed scope',
    );
  });

  test('a key with one scope is refused every route outside it, naming the scope that route needs', async () => {
    const owner = setup.keys.get('owner')!;
    const viewer = setup.people.get('viewer')!.id;
    const scoped = registry().filter((r) => scopeOf(r.action) !== null);
    let refused = 0;
    for (const scope of SCOPES) {
      const key = owner.only.get(scope)!;
      for (const route of scoped.filter((r) => scopeOf(r.action) !== scope)) {
        const path = pathOf(route, setup.workspaceId, viewer);
        const json =
          BODIES[`${route.method} ${route.url}`] ??
          (route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
        const res = await h().request(route.method, path, { key, json });
        const what = `${route.method} ${path} with only ${scope}`;
        assert.equal(res.status, 403, `${what}: ${res.text}`);
        assert.equal(res.body.message, `This key lacks the scope ${scopeOf(route.action)}.`, what);
        refused++;
      }
    }
    assert.ok(refused > 500, `${refused} refusals`);
    // The finding (issue 48): the key docs/api.md offers a shop's server reads no member.
    const shop = owner.only.get('conversions:write')!;
    const members = await h().request('GET', `/api/v1/workspaces/${setup.workspaceId}/members`, { key: shop });
    assert.equal(members.status, 403, members.text);
    assert.equal(
      (
        await h().request('GET', `/api/v1/workspaces/${setup.workspaceId}/members`, {
          key: owner.only.get('workspace:admin')!,
        })
      ).status,
      200,
    );
    // The documented no-scope routes stay open to it; leaving last, as one who joins to leave.
    const leaver = await h().account();
    await addMember(h(), setup.people.get('owner')!, setup.workspaceId, leaver, 'viewer');
    const onlyLinks = await makeKey(h(), leaver, setup.workspaceId, ['links:read']);
    for (const path of ['/api/v1/account', '/api/v1/workspaces', `/api/v1/workspaces/${setup.workspaceId}`]) {
      const res = await h().request('GET', path, { key: onlyLinks });
      assert.equal(res.status, 200, `${path}: ${res.text}`);
    }
    const left = await h().request('DELETE', `/api/v1/workspaces/${setup.workspaceId}/members/${leaver.id}`, {
      key: onlyLinks,
    });
    assert.equal(left.status, 200, left.text);
  });
});
