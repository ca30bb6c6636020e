// The role × action matrix (issue 33), generated from the policy table over every API route:
// the four roles × a key without scopes, with only the needed scope, and with every scope but it.
// Each answer is a 403 naming what is missing exactly when the policy says so; both engines.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { ACTIONS, POLICY, ROLES, SCOPES, roleAllows, type Action, type Role, type Scope } from '../../../src/core/workspaces/policy.ts';
import { SERVICE_DECIDES } from '../../../src/adapters/http/route-actions.ts';
import { addMember, makeKey, makeWorkspace, type Person } from './workspaces-support.ts';

const MISSING_ID = '2147480000';

interface RoleKeys {
  all: string;
  only: Map<Scope, string>;
  allBut: Map<Scope, string>;
}

/** A workspace with a member of each role, each with the three kinds of key. */
async function cast(h: Harness): Promise<{ workspaceId: number; people: Map<Role, Person>; keys: Map<Role, RoleKeys> }> {
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

async function check(h: Harness, c: Case, role: Role, key: string, forbiddenBy: 'role' | 'scope' | null): Promise<void> {
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

onEachEngine('API policy matrix', (h) => {
  let setup: Awaited<ReturnType<typeof cast>>;
  before(async () => {
    setup = await cast(h());
  });

  test('every route the policy table guards answers as the table says, for each role and key', async () => {
    const routes = h().server.app.policedRoutes.filter((r) => r.action !== SERVICE_DECIDES);
    assert.ok(routes.length > 40, `the registry holds the API's routes (${routes.length})`);
    const cases = routes.map((r) => ({ method: r.method, path: r.url.replace(/:[a-z_]+/g, MISSING_ID), action: r.action as Action }));
    await walk(h(), cases, setup.keys);
  });

  test("the workspace's own routes answer as the table says, for each role and key", async () => {
    const w = `/api/v1/workspaces/${setup.workspaceId}`;
    const viewer = setup.people.get('viewer')!.id;
    const cases: Case[] = [
      { method: 'GET', path: w, action: 'workspace.read' },
      { method: 'PUT', path: w, action: 'workspace.settings', json: {} },
      { method: 'GET', path: `${w}/members`, action: 'members.read' },
      { method: 'PUT', path: `${w}/members/${viewer}`, action: 'members.manage', json: { role: 'viewer' } },
      { method: 'GET', path: `${w}/invitations`, action: 'invitations.manage' },
      { method: 'POST', path: `${w}/invitations`, action: 'invitations.manage', json: { email: 'matrix@example.com', role: 'viewer' } },
      { method: 'DELETE', path: `${w}/invitations/${MISSING_ID}`, action: 'invitations.manage' },
      { method: 'GET', path: `${w}/api-keys`, action: 'keys.own' },
      { method: 'GET', path: `${w}/audit`, action: 'audit.read' },
      { method: 'GET', path: `${w}/audit?format=csv`, action: 'audit.read' },
      { method: 'POST', path: '/api/v1/workspaces', action: 'workspace.create', json: { name: 'Made in the matrix' } },
    ];
    await walk(h(), cases, setup.keys);
    // Acted on in workspaces.test.ts, where their effects are looked at: deleting a workspace,
    // every key of it, owners' roles.
    const elsewhere: Action[] = ['workspace.delete', 'keys.all', 'owners.manage'];
    const covered = new Set<Action>([
      ...h()
        .server.app.policedRoutes.map((r) => r.action)
        .filter((a): a is Action => a !== SERVICE_DECIDES),
      ...cases.map((c) => c.action),
      ...elsewhere,
    ]);
    assert.deepEqual(
      ACTIONS.filter((a) => !covered.has(a)),
      [],
      'every action of the table is walked',
    );
  });
});
