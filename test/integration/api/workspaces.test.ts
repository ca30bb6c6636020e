// Teams (docs/design/teams.md): workspaces, members, invitations and keys over the API; both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { makeLink } from './links-support.ts';
import { addMember, enrolTwoFactor, makeKey, makeWorkspace } from './workspaces-support.ts';

const DAY = 24 * 60 * 60 * 1000;
/** Moved forward by the expiry tests; everything else reads the same time. */
const clock = { offset: 0, now: () => Date.now() + clock.offset };

onEachEngine(
  'API workspaces',
  (h) => {
    test('an account is the owner of its personal workspace; a new workspace lists with role owner', async () => {
      const a = await h().account();
      const listed = await h().request('GET', '/api/v1/workspaces', { key: a.key });
      assert.equal(listed.status, 200, listed.text);
      assert.deepEqual(
        listed.body.data.map((w: { id: number; role: string; personal: boolean }) => [w.id, w.role, w.personal]),
        [[a.id, 'owner', true]],
      );
      const team = await makeWorkspace(h(), a, 'Marketing');
      assert.equal(team.role, 'owner');
      assert.equal(team.personal, false);
      assert.equal(team.name, 'Marketing');
      const after = await h().request('GET', '/api/v1/workspaces', { key: a.key });
      assert.deepEqual(
        after.body.data.map((w: { id: number }) => w.id),
        [a.id, team.id],
      );
      await enrolTwoFactor(h(), a);
      const renamed = await h().request('PUT', `/api/v1/workspaces/${team.id}`, {
        key: a.key,
        json: { name: 'Growth', require_2fa: true, timezone: 'Europe/Paris' },
      });
      assert.equal(renamed.status, 200, renamed.text);
      assert.deepEqual(
        [renamed.body.data.name, renamed.body.data.require_2fa, renamed.body.data.timezone],
        ['Growth', true, 'Europe/Paris'],
      );
      const bad = await h().request('PUT', `/api/v1/workspaces/${team.id}`, {
        key: a.key,
        json: { name: ' ', timezone: 'Mars/Base' },
      });
      assert.equal(bad.status, 422);
      assert.deepEqual(Object.keys(bad.body.message).sort(), ['name', 'timezone']);
      const personal = await h().request('DELETE', `/api/v1/workspaces/${a.id}`, { key: a.key });
      assert.equal(personal.status, 422);
      assert.ok(personal.body.message.personal);
    });

    test("a key acts in its workspace: a team key's links are the team's, not the person's", async () => {
      const a = await h().account();
      const team = await makeWorkspace(h(), a);
      const teamKey = await makeKey(h(), a, team.id);
      const link = await makeLink(h(), teamKey, { url: 'https://example.com/team' });
      const mine = await h().request('GET', `/api/v1/links/${link.id}`, { key: a.key });
      assert.equal(mine.status, 404, 'the personal key does not see the team link');
      const read = await h().request('GET', `/api/v1/links/${link.id}`, { key: teamKey });
      assert.equal(read.status, 200);
      const account = await h().request('GET', '/api/v1/account', { key: teamKey });
      assert.equal(account.body.data.id, team.id, '/api/v1/account names the key’s workspace');
    });

    test('a workspace one is not a member of is a 404 on every path', async () => {
      const a = await h().account();
      const stranger = await h().account();
      const team = await makeWorkspace(h(), a);
      for (const [method, path] of [
        ['GET', `/api/v1/workspaces/${team.id}`],
        ['PUT', `/api/v1/workspaces/${team.id}`],
        ['DELETE', `/api/v1/workspaces/${team.id}`],
        ['GET', `/api/v1/workspaces/${team.id}/members`],
        ['GET', `/api/v1/workspaces/${team.id}/invitations`],
        ['GET', `/api/v1/workspaces/${team.id}/api-keys`],
        ['POST', `/api/v1/workspaces/${team.id}/api-keys`],
        ['DELETE', `/api/v1/workspaces/${team.id}/members/${a.id}`],
      ] as const) {
        const res = await h().request(method, path, {
          key: stranger.key,
          json: method === 'GET' || method === 'DELETE' ? undefined : { name: 'x' },
        });
        assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
      }
    });

    test('members: roles change, the last owner can neither leave nor be demoted (422 on role), a member leaves', async () => {
      const a = await h().account();
      const b = await h().account();
      const team = await makeWorkspace(h(), a);
      await addMember(h(), a, team.id, b, 'editor');
      const members = await h().request('GET', `/api/v1/workspaces/${team.id}/members`, { key: b.key });
      assert.equal(members.status, 200, members.text);
      assert.deepEqual(
        members.body.data.map((m: { user_id: number; role: string; email: string; two_factor: boolean }) => [
          m.user_id,
          m.role,
          m.email,
          m.two_factor,
        ]),
        [
          [a.id, 'owner', a.email, false],
          [b.id, 'editor', b.email, false],
        ],
      );
      const demote = await h().request('PUT', `/api/v1/workspaces/${team.id}/members/${a.id}`, {
        key: a.key,
        json: { role: 'admin' },
      });
      assert.equal(demote.status, 422, demote.text);
      assert.ok(demote.body.message.role);
      const leave = await h().request('DELETE', `/api/v1/workspaces/${team.id}/members/${a.id}`, { key: a.key });
      assert.equal(leave.status, 422);
      assert.ok(leave.body.message.role);
      const badRole = await h().request('PUT', `/api/v1/workspaces/${team.id}/members/${b.id}`, {
        key: a.key,
        json: { role: 'king' },
      });
      assert.equal(badRole.status, 422);
      assert.ok(badRole.body.message.role);

      const byEditor = await h().request('PUT', `/api/v1/workspaces/${team.id}/members/${a.id}`, {
        key: b.key,
        json: { role: 'viewer' },
      });
      assert.equal(byEditor.status, 403);
      assert.match(byEditor.body.message, /admin/);

      const promote = await h().request('PUT', `/api/v1/workspaces/${team.id}/members/${b.id}`, {
        key: a.key,
        json: { role: 'owner' },
      });
      assert.equal(promote.status, 200, promote.text);
      const nowLeave = await h().request('DELETE', `/api/v1/workspaces/${team.id}/members/${a.id}`, { key: a.key });
      assert.equal(nowLeave.status, 200, 'with another owner, the first may leave');
      const gone = await h().request('GET', `/api/v1/workspaces/${team.id}`, { key: a.key });
      assert.equal(gone.status, 404);
    });

    test('invitations: accepted once (410 after), another email 403, revoked 410, expired 410; the token is stored hashed', async () => {
      const a = await h().account();
      const b = await h().account();
      const c = await h().account();
      const team = await makeWorkspace(h(), a);
      const invite = async (email: string, role = 'viewer') => {
        const res = await h().request('POST', `/api/v1/workspaces/${team.id}/invitations`, {
          key: a.key,
          json: { email: email.toUpperCase(), role },
        });
        assert.equal(res.status, 201, res.text);
        return res.body.data;
      };
      const first = await invite(b.email, 'editor');
      assert.equal(first.email, b.email);
      assert.match(first.accept_url, new RegExp(`^http://short\\.test/signup/invitation/${first.token}$`));
      assert.equal(Date.parse(first.expires_at) - Date.parse(first.created_at), 7 * DAY);

      const listed = await h().request('GET', `/api/v1/workspaces/${team.id}/invitations`, { key: a.key });
      assert.deepEqual(
        listed.body.data.map((i: { id: number }) => i.id),
        [first.id],
      );
      assert.equal(listed.body.data[0].token, undefined, 'the token is shown once');

      const wrong = await h().request('POST', `/api/v1/invitations/${first.token}/accept`, { key: c.key });
      assert.equal(wrong.status, 403);
      assert.deepEqual(wrong.body, { message: 'This invitation was sent to another email address.', status: 403 });
      const ok = await h().request('POST', `/api/v1/invitations/${first.token}/accept`, { key: b.key });
      assert.equal(ok.status, 200, ok.text);
      assert.deepEqual(ok.body.data, { workspace_id: team.id, role: 'editor' });
      const twice = await h().request('POST', `/api/v1/invitations/${first.token}/accept`, { key: b.key });
      assert.equal(twice.status, 410);

      const revoked = await invite(c.email);
      const del = await h().request('DELETE', `/api/v1/workspaces/${team.id}/invitations/${revoked.id}`, {
        key: a.key,
      });
      assert.equal(del.status, 200, del.text);
      assert.equal(
        (await h().request('POST', `/api/v1/invitations/${revoked.token}/accept`, { key: c.key })).status,
        410,
      );

      const late = await invite(c.email);
      clock.offset = 7 * DAY + 1000;
      try {
        assert.equal(
          (await h().request('POST', `/api/v1/invitations/${late.token}/accept`, { key: c.key })).status,
          410,
        );
      } finally {
        clock.offset = 0;
      }
      assert.equal(
        (await h().request('POST', `/api/v1/invitations/${'x'.repeat(43)}/accept`, { key: c.key })).status,
        404,
      );

      const bad = await h().request('POST', `/api/v1/workspaces/${team.id}/invitations`, {
        key: a.key,
        json: { email: 'nope', role: 'emperor' },
      });
      assert.equal(bad.status, 422);
      assert.deepEqual(Object.keys(bad.body.message).sort(), ['email', 'role']);
      const byEditor = await h().request('POST', `/api/v1/workspaces/${team.id}/invitations`, {
        key: b.key,
        json: { email: 'x@example.com', role: 'viewer' },
      });
      assert.equal(byEditor.status, 403);

      const stored = await h()
        .server.container.storage.db.selectFrom('invitations')
        .select('token_hash')
        .where('id', '=', first.id)
        .executeTakeFirstOrThrow();
      assert.notEqual(stored.token_hash, first.token);
      assert.equal(stored.token_hash.length, 64);
    });

    test('keys: scopes bound a key, a demotion shrinks it at the next request, a removal answers 403, expiry 401', async () => {
      const a = await h().account();
      const b = await h().account();
      const team = await makeWorkspace(h(), a);
      await addMember(h(), a, team.id, b, 'editor');
      const readOnly = await makeKey(h(), b, team.id, ['links:read']);
      const full = await makeKey(h(), b, team.id);
      const write = await h().request('POST', '/api/v1/links', {
        key: readOnly,
        json: { url: 'https://example.com/r' },
      });
      assert.deepEqual(write.body, { message: 'This key lacks the scope links:write.', status: 403 });
      assert.equal((await h().request('GET', '/api/v1/links', { key: readOnly })).status, 200);
      assert.equal((await h().request('GET', '/api/v1/pixels', { key: readOnly })).status, 403);
      assert.equal(
        (await h().request('GET', '/api/v1/account', { key: readOnly })).status,
        200,
        '/api/v1/account needs no scope',
      );
      await makeLink(h(), full, { url: 'https://example.com/editor' });

      const demote = await h().request('PUT', `/api/v1/workspaces/${team.id}/members/${b.id}`, {
        key: a.key,
        json: { role: 'viewer' },
      });
      assert.equal(demote.status, 200, demote.text);
      const shrunk = await h().request('POST', '/api/v1/links', { key: full, json: { url: 'https://example.com/v' } });
      assert.deepEqual(shrunk.body, { message: 'This needs the role editor or above in the workspace.', status: 403 });
      assert.equal((await h().request('GET', '/api/v1/links', { key: full })).status, 200);

      const listedByB = await h().request('GET', `/api/v1/workspaces/${team.id}/api-keys`, { key: b.key });
      assert.equal(listedByB.body.data.length, 2, 'a viewer sees their own keys');
      const listedByA = await h().request('GET', `/api/v1/workspaces/${team.id}/api-keys`, { key: a.key });
      assert.deepEqual(
        listedByA.body.data.map((k: { user: { id: number }; scopes: string[] | null }) => [k.user.id, k.scopes]),
        [
          [b.id, ['links:read']],
          [b.id, null],
        ],
      );
      assert.ok(
        listedByA.body.data.every(
          (k: { prefix: string; key?: string }) => k.prefix.startsWith('lpx_') && k.key === undefined,
        ),
      );

      const removed = await h().request('DELETE', `/api/v1/workspaces/${team.id}/members/${b.id}`, { key: a.key });
      assert.equal(removed.status, 200, removed.text);
      assert.equal(
        (await h().request('GET', '/api/v1/links', { key: full })).status,
        403,
        "a removed member's key answers 403",
      );

      const soon = new Date(clock.now() + DAY).toISOString();
      const expiring = await makeKey(h(), a, team.id, null, soon);
      assert.equal((await h().request('GET', '/api/v1/links', { key: expiring })).status, 200);
      clock.offset = DAY + 1000;
      try {
        assert.equal((await h().request('GET', '/api/v1/links', { key: expiring })).status, 401);
      } finally {
        clock.offset = 0;
      }
      const past = await h().request('POST', `/api/v1/workspaces/${team.id}/api-keys`, {
        key: a.key,
        json: { name: 'old', expires_at: new Date(clock.now() - DAY).toISOString(), scopes: ['links:fly'] },
      });
      assert.equal(past.status, 422);
      assert.deepEqual(Object.keys(past.body.message).sort(), ['expires_at', 'scopes']);

      const revoke = await h().request(
        'DELETE',
        `/api/v1/workspaces/${team.id}/api-keys/${listedByA.body.data[0].id}`,
        { key: a.key },
      );
      assert.equal(revoke.status, 200, 'an admin revokes any key of the workspace');
      assert.equal((await h().request('GET', '/api/v1/links', { key: readOnly })).status, 401);
    });

    test("a key with scopes acts in its own workspace only and makes no key wider than itself; a removed member's key does nothing anywhere; nobody is invited into a personal workspace", async () => {
      const a = await h().account();
      const b = await h().account();
      const team = await makeWorkspace(h(), a);
      await addMember(h(), a, team.id, b, 'admin');
      const delegated = await makeKey(h(), b, team.id, ['workspace:admin', 'links:read']);
      // An unscoped key stands for its user in each of their workspaces; a scoped one does not.
      assert.equal((await h().request('GET', `/api/v1/workspaces/${b.id}/api-keys`, { key: delegated })).status, 403);
      const wider = await h().request('POST', `/api/v1/workspaces/${b.id}/api-keys`, {
        key: delegated,
        json: { name: 'escape' },
      });
      assert.equal(wider.status, 403, wider.text);
      const unscoped = await h().request('POST', `/api/v1/workspaces/${team.id}/api-keys`, {
        key: delegated,
        json: { name: 'all' },
      });
      assert.equal(unscoped.status, 403, unscoped.text);
      const broader = await h().request('POST', `/api/v1/workspaces/${team.id}/api-keys`, {
        key: delegated,
        json: { name: 'more', scopes: ['links:write'] },
      });
      assert.equal(broader.status, 403, broader.text);
      const narrower = await h().request('POST', `/api/v1/workspaces/${team.id}/api-keys`, {
        key: delegated,
        json: { name: 'less', scopes: ['links:read'] },
      });
      assert.equal(narrower.status, 201, narrower.text);

      const teamKey = await makeKey(h(), b, team.id);
      assert.equal(
        (await h().request('DELETE', `/api/v1/workspaces/${team.id}/members/${b.id}`, { key: a.key })).status,
        200,
      );
      for (const [method, path] of [
        ['GET', `/api/v1/workspaces/${b.id}`],
        ['GET', `/api/v1/workspaces/${b.id}/api-keys`],
        ['POST', `/api/v1/workspaces/${b.id}/api-keys`],
      ] as const) {
        const res = await h().request(method, path, {
          key: teamKey,
          ...(method === 'POST' ? { json: { name: 'back door' } } : {}),
        });
        assert.equal(res.status, 403, `${method} ${path} with a removed member's key: ${res.text}`);
      }

      const intoPersonal = await h().request('POST', `/api/v1/workspaces/${a.id}/invitations`, {
        key: a.key,
        json: { email: b.email, role: 'owner' },
      });
      assert.equal(intoPersonal.status, 422, intoPersonal.text);
      assert.ok(intoPersonal.body.message.workspace);
    });

    test('deleting a team workspace takes its links; only an owner may', async () => {
      const a = await h().account();
      const b = await h().account();
      const team = await makeWorkspace(h(), a);
      await addMember(h(), a, team.id, b, 'admin');
      const teamKey = await makeKey(h(), a, team.id);
      const link = await makeLink(h(), teamKey, { url: 'https://example.com/gone' });
      const byAdmin = await h().request('DELETE', `/api/v1/workspaces/${team.id}`, { key: b.key });
      assert.equal(byAdmin.status, 403);
      const del = await h().request('DELETE', `/api/v1/workspaces/${team.id}`, { key: a.key });
      assert.equal(del.status, 200, del.text);
      assert.equal(
        (await h().request('GET', `/api/v1/links/${link.id}`, { key: teamKey })).status,
        401,
        'its keys went with it',
      );
      assert.deepEqual(
        (await h().request('GET', '/api/v1/workspaces', { key: b.key })).body.data.map((w: { id: number }) => w.id),
        [b.id],
      );
    });
  },
  { overrides: { clock } },
);
