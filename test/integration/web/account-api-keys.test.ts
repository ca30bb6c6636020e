import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { WebClient, signedUp } from '../../support/web-client.ts';
import { ManualClock } from '../stats/stats-support.ts';
import { createKeyOnPage, fieldError } from './account-support.ts';
import { webInvite, webJoin, webPerson, webWorkspace } from './workspaces-support.ts';

const clock = new ManualClock(Date.parse('2026-03-10T12:00:00Z'));

onEachEngine(
  'web: API keys',
  (h) => {
    test('a key made on the page is shown once, works with Authorization: Bearer, and stops at revoke', async () => {
      const { client, email } = await signedUp(h().baseUrl);
      const made = await client.post('/account/api-keys', { name: 'Zapier' }, { from: '/account/api-keys' });
      assert.equal(made.status, 200, 'answered with the page itself, not a 303 through a cookie');
      assert.equal(made.headers.get('cache-control'), 'no-store');
      assert.ok(
        !made.headers.getSetCookie().some((c) => /lpx_flash/.test(c) && !/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c)),
        'never in the flash',
      );
      const key = /id="made-key"[^>]*value="(lpx_[A-Za-z0-9_-]{43})"/.exec(made.text)![1]!;
      assert.match(made.text, /shown this once and never again/);
      assert.match(
        made.text,
        /<label for="made-key">Your new key “Zapier[^”]*”<\/label>/,
        'the name quoted, not run into a sentence',
      );
      assert.match(made.text, new RegExp(`data-copy="${key}"`));

      const api = await h().request('GET', '/api/v1/account', { key });
      assert.equal(api.status, 200);
      assert.equal(api.body.data.email, email);

      const list = await client.get('/account/api-keys');
      assert.ok(!list.text.includes(key), 'the list never shows the whole key again');
      assert.match(list.text, new RegExp(`${key.slice(0, 12)}…`), 'its prefix tells it apart');
      assert.match(list.text, /Zapier/);
      const id = new RegExp(`action="/account/api-keys/(\\d+)/revoke"`).exec(list.text)![1];

      const revoked = await client.post(`/account/api-keys/${id}/revoke`, {}, { from: '/account/api-keys' });
      assert.equal(revoked.status, 303);
      assert.equal(revoked.location, '/account/api-keys');
      assert.equal((await h().request('GET', '/api/v1/account', { key })).status, 401);
      const after = await client.get('/account/api-keys');
      assert.match(after.text, /Revoked /);
      assert.match(after.text, /The key is revoked/);
      assert.doesNotMatch(after.text, /\/revoke"/, 'no revoke button on a revoked key');
      assert.equal(
        (await client.post(`/account/api-keys/${id}/revoke`, {}, { from: '/account/api-keys' })).status,
        303,
        'twice is no error',
      );
    });

    test('a nameless or overlong name is refused, and no key is made', async () => {
      const { client } = await signedUp(h().baseUrl);
      for (const name of ['', '   ', 'x'.repeat(65)]) {
        const reply = await client.post('/account/api-keys', { name }, { from: '/account/api-keys' });
        assert.equal(reply.status, 422, JSON.stringify(name));
        assert.ok(fieldError(reply.text, 'name'), 'the message is next to the field');
        assert.doesNotMatch(reply.text, /id="made-key"/);
      }
      assert.match((await client.get('/account/api-keys')).text, /No API keys yet\./);
    });

    test("another account's key is not found and stays live; CSRF is checked", async () => {
      const mine = await signedUp(h().baseUrl);
      const theirs = await signedUp(h().baseUrl);
      const theirKey = await createKeyOnPage(theirs.client);
      const id = /action="\/account\/api-keys\/(\d+)\/revoke"/.exec(
        (await theirs.client.get('/account/api-keys')).text,
      )![1];
      assert.equal(
        (await mine.client.post(`/account/api-keys/${id}/revoke`, {}, { from: '/account/api-keys' })).status,
        404,
      );
      for (const bad of ['x', '0'])
        assert.equal(
          (await mine.client.post(`/account/api-keys/${bad}/revoke`, {}, { from: '/account/api-keys' })).status,
          404,
        );
      const forged = await theirs.client.send('POST', `/account/api-keys/${id}/revoke`, '_csrf=nope', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      assert.equal(forged.status, 403);
      const noToken = await theirs.client.send('POST', '/account/api-keys', 'name=sneaky', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      assert.equal(noToken.status, 403);
      assert.doesNotMatch((await theirs.client.get('/account/api-keys')).text, /sneaky/);
      assert.equal((await h().request('GET', '/api/v1/account', { key: theirKey })).status, 200);
    });

    test('a stored <script> key name comes out escaped', async () => {
      const { client } = await signedUp(h().baseUrl);
      await createKeyOnPage(client, '<script>x</script>');
      const page = await client.get('/account/api-keys');
      assert.ok(!page.text.includes('<script>x</script>'));
      assert.ok(page.text.includes('&lt;script&gt;x&lt;/script&gt;'));
    });

    test('"last used" is recorded by the API, at most once a minute per key', async () => {
      const { client, email } = await signedUp(h().baseUrl);
      const key = await createKeyOnPage(client, 'cron');
      const lastUsed = async () => (await h().server.container.accounts.listKeys(email))[0]!.lastUsedAt;
      assert.match((await client.get('/account/api-keys')).text, /<td data-label="Last used">Never<\/td>/);
      clock.set('2026-03-10T12:00:00Z');
      assert.equal((await h().request('GET', '/api/v1/account', { key })).status, 200);
      const first = Date.parse('2026-03-10T12:00:00Z');
      assert.equal(await lastUsed(), first);
      clock.set('2026-03-10T12:00:59Z');
      await h().request('GET', '/api/v1/account', { key });
      assert.equal(await lastUsed(), first, 'not written again within the minute');
      clock.set('2026-03-10T12:01:01Z');
      await h().request('GET', '/api/v1/account', { key });
      assert.equal(await lastUsed(), Date.parse('2026-03-10T12:01:01Z'));
      assert.doesNotMatch((await client.get('/account/api-keys')).text, /<td data-label="Last used">Never<\/td>/);
    });

    test('anonymous visitors are sent to sign in', async () => {
      const reply = await new WebClient(h().baseUrl).get('/account/api-keys');
      assert.equal(reply.status, 303);
      assert.equal(reply.location, '/login?next=%2Faccount%2Fapi-keys');
    });

    test("the page holds the person's keys of every workspace, makes one in the workspace chosen, and revokes it", async () => {
      const owner = await webPerson(h().baseUrl);
      const teamId = await webWorkspace(owner, 'Key team');
      const member = await webPerson(h().baseUrl);
      assert.equal((await webJoin(member, await webInvite(owner, teamId, member.email, 'editor'))).status, 303);
      const { container } = h().server;
      const memberId = (await container.accounts.requireByEmail(member.email)).id;
      // One key in the personal workspace, one in the team's.
      const personal = await member.client.post(
        '/account/api-keys',
        { name: 'Personal script', workspace: String(memberId) },
        { from: '/account/api-keys' },
      );
      assert.equal(personal.status, 200, personal.text.slice(0, 300));
      const page = await member.client.get('/account/api-keys');
      assert.match(page.text, /<select id="f-workspace" name="workspace"/, 'the workspace is chosen on the form');
      assert.match(
        page.text,
        new RegExp(`<option value="${teamId}" selected>Key team</option>`),
        'the current workspace is chosen first',
      );
      const made = await member.client.post(
        '/account/api-keys',
        { name: 'Team script', workspace: String(teamId) },
        { from: '/account/api-keys' },
      );
      assert.equal(made.status, 200, made.text.slice(0, 300));
      const key = /id="made-key"[^>]*value="([^"]+)"/.exec(made.text)?.[1];
      assert.ok(key);
      // The key acts in the team workspace: its links are the team's.
      const link = await h().request('POST', '/api/v1/links', { key, json: { url: 'https://example.com/team-key' } });
      assert.equal(link.status, 201, link.text);
      const teamLinks = await container.workspaceKeys.ofPerson({
        userId: memberId,
        keyId: null,
        scopes: null,
        home: { workspaceId: memberId, role: 'owner' },
      });
      assert.deepEqual(
        teamLinks.map((p) => [p.workspace.name, (p.keys ?? []).map((k) => k.key.name)]).sort(),
        [
          ['Key team', ['Team script']],
          [(await container.accounts.requireByEmail(member.email)).name, ['Personal script']],
        ].sort(),
      );
      const list = (await member.client.get('/account/api-keys')).text;
      assert.match(
        list,
        /<td>Team script<\/td>\s*<td data-label="Workspace">Key team<\/td>/,
        'each key names its workspace',
      );
      assert.match(list, /Personal script/);
      assert.match(
        list,
        new RegExp(`href="/account/workspaces/${teamId}#keys-title"`),
        "each workspace's own keys page is linked",
      );
      // The owner, an admin of the team, sees the member's key on the workspace's page too.
      assert.match((await owner.client.get(`/account/workspaces/${teamId}`)).text, /Team script/);
      const id =
        /action="\/account\/api-keys\/(\d+)\/revoke"[^>]*>(?:(?!<\/form>)[\s\S])*aria-label="Revoke the key “Team script”"/.exec(
          list,
        )?.[1];
      assert.ok(id, 'the team key has its revoke button here');
      assert.equal(
        (await member.client.post(`/account/api-keys/${id}/revoke`, {}, { from: '/account/api-keys' })).status,
        303,
      );
      assert.equal((await h().request('GET', '/api/v1/links', { key })).status, 401);
    });

    test('a workspace the person is not a member of is refused on the form, naming the field', async () => {
      const owner = await webPerson(h().baseUrl);
      const theirs = await webWorkspace(owner, 'Not yours');
      const { client } = await signedUp(h().baseUrl);
      const reply = await client.post(
        '/account/api-keys',
        { name: 'Sneaky', workspace: String(theirs) },
        { from: '/account/api-keys' },
      );
      assert.equal(reply.status, 422);
      assert.ok(fieldError(reply.text, 'workspace'), 'the message names the workspace');
      assert.doesNotMatch(reply.text, /id="made-key"/);
    });
  },
  { overrides: { clock } },
);
