// The web side of the role × action matrix (issue 33), generated from the web app's route
// registry: every page and form a policy action guards × the four roles, each signed in with the
// workspace as their current one. A 403 page naming the role exactly when the table says so.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { POLICY, ROLES, roleAllows, type Action } from '../../../src/core/workspaces/policy.ts';
import { webCast } from './workspaces-support.ts';

const MISSING_ID = '2147480000';

onEachEngine('web policy matrix', (h) => {
  let cast: Awaited<ReturnType<typeof webCast>>;
  before(async () => {
    cast = await webCast(h().baseUrl, 'Matrix');
  });

  test('every web route the policy table guards answers as the table says, for each role', async () => {
    // The live stream never ends; its rule (stats.read) every role holds, and live.test.ts opens it.
    const routes = h()
      .server.app.webPolicedRoutes.filter((r): r is typeof r & { rule: Action } => r.rule in POLICY)
      .filter((r) => r.url !== '/account/live');
    assert.ok(routes.length > 30, `the registry holds the web app's routes (${routes.length})`);
    assert.ok(
      h().server.app.webPolicedRoutes.every(
        (r) => r.method === 'GET' || r.rule !== 'none' || !r.url.startsWith('/links'),
      ),
      'no form of the data pages goes unmapped',
    );
    for (const route of routes) {
      const path = route.url.replace(/:[A-Za-z_]+/g, MISSING_ID).replace(/\*$/, '');
      for (const role of ROLES) {
        const { client } = cast.people[role];
        const reply =
          route.method === 'GET' ? await client.get(path) : await client.post(path, {}, { from: '/account' });
        const what = `${route.method} ${route.url} (${route.rule}) as ${role}`;
        if (roleAllows(role, route.rule)) {
          // Allowed: anything but the role's refusal (a multipart form posted as a plain one meets its own CSRF check).
          assert.ok(
            reply.status < 500 && !/needs the role/.test(reply.text),
            `${what}: allowed, got ${reply.status} ${reply.text.slice(0, 300)}`,
          );
        } else {
          assert.equal(reply.status, 403, `${what}: forbidden, got ${reply.status}`);
          assert.match(reply.text, new RegExp(`needs the role ${POLICY[route.rule].role} or above`), what);
        }
      }
    }
  });
});
