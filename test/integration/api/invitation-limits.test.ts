// Invitations limited per inviter and per workspace (issue 33, INVITE_LIMIT_*): past either, the API
// answers 429 naming which with Retry-After, and the web app's form comes back naming it with what
// was typed kept; nothing is stored or mailed past a limit; both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { signedUp } from '../../support/web-client.ts';
import { addMember, makeWorkspace } from './workspaces-support.ts';

const invite = (h: Harness, key: string, workspaceId: number, email: string) =>
  h.request('POST', `/api/v1/workspaces/${workspaceId}/invitations`, { key, json: { email, role: 'viewer' } });

onEachEngine(
  'invitation limits',
  (h) => {
    test('per inviter, then per workspace: 429 naming the limit, Retry-After, nothing stored past it', async () => {
      const owner = await h().account();
      const admin = await h().account();
      const team = await makeWorkspace(h(), owner);
      await addMember(h(), owner, team.id, admin, 'admin'); // the owner's first, the workspace's first
      for (const n of [1, 2])
        assert.equal((await invite(h(), owner.key, team.id, `limit-${n}@example.com`)).status, 201);
      const mine = await invite(h(), owner.key, team.id, 'limit-3@example.com');
      assert.equal(mine.status, 429, mine.text);
      assert.deepEqual(mine.body, {
        message: 'You have sent too many invitations for now: try again later.',
        status: 429,
      });
      assert.ok(Number(mine.headers.get('retry-after')) > 0);

      assert.equal(
        (await invite(h(), admin.key, team.id, 'limit-4@example.com')).status,
        201,
        "the admin's own count, the workspace's fourth",
      );
      const ours = await invite(h(), admin.key, team.id, 'limit-5@example.com');
      assert.equal(ours.status, 429, ours.text);
      assert.equal(ours.body.message, 'This workspace has sent too many invitations for now: try again later.');

      const listed = await h().request('GET', `/api/v1/workspaces/${team.id}/invitations`, { key: owner.key });
      const emails = listed.body.data.map((i: { email: string }) => i.email).sort();
      assert.deepEqual(
        emails,
        ['limit-1@example.com', 'limit-2@example.com', 'limit-4@example.com'],
        'the refused ones were not stored',
      );
    });

    test('the web form past the limit: 429, the limit named on the email field, the address kept', async () => {
      const { client } = await signedUp(h().baseUrl);
      const made = await client.post('/account/workspaces', { name: 'Limited' }, { from: '/account/workspaces' });
      assert.equal(made.status, 303, made.text.slice(0, 300));
      const page = made.location!;
      for (const n of [1, 2, 3]) {
        const ok = await client.post(
          `${page}/invitations`,
          { email: `web-limit-${n}@example.com`, role: 'viewer' },
          { from: page },
        );
        assert.equal(ok.status, 200, ok.text.slice(0, 300));
      }
      const refused = await client.post(
        `${page}/invitations`,
        { email: 'web-limit-4@example.com', role: 'viewer' },
        { from: page },
      );
      assert.equal(refused.status, 429);
      assert.ok(refused.headers.get('retry-after'));
      assert.match(
        refused.text,
        /Too many invitations for now, from you or from this workspace\. Try again in \d+ minutes\./,
      );
      assert.match(refused.text, /value="web-limit-4@example\.com"/);
    });
  },
  {
    overrides: {
      tuning: { INVITE_LIMIT_PER_INVITER: 3, INVITE_LIMIT_PER_WORKSPACE: 4, INVITE_LIMIT_WINDOW_SECONDS: 3600 },
    },
  },
);
