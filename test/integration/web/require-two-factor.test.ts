// require_2fa in the web app (issue 33): a member without two-factor is sent to enrol before anything else; both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { onEachEngine } from '../../support/harness.ts';
import { signedUp, type WebClient } from '../../support/web-client.ts';
import { webCast } from './workspaces-support.ts';

async function enrolOnPage(client: WebClient, now: number): Promise<void> {
  await client.post('/account/security/two-factor/start', {}, { from: '/account/security' });
  const page = await client.get('/account/security');
  const secret = /id="totp-secret"[^>]*value="([A-Z2-7 ]+)"/.exec(page.text)![1]!.replace(/ /g, '');
  const confirmed = await client.post(
    '/account/security/two-factor/confirm',
    { code: TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: now }) },
    { from: '/account/security' },
  );
  assert.equal(confirmed.status, 200, confirmed.text);
}

onEachEngine('web: require_2fa', (h) => {
  test('every page of the workspace leads to /account/security until two-factor is on; keys cannot be made meanwhile', async () => {
    const { client, email } = await signedUp(h().baseUrl);
    // The rule as an owner leaves it after turning their own two-factor off again.
    await h()
      .server.container.storage.db.updateTable('accounts')
      .set({ require_2fa: 1 })
      .where('email', '=', email)
      .execute();

    for (const path of ['/dashboard', '/links', '/account/api-keys']) {
      const res = await client.get(path);
      assert.equal(res.status, 303, path);
      assert.equal(res.location, '/account/security', path);
    }
    const security = await client.get('/account/security');
    assert.equal(security.status, 200);
    assert.match(security.text, /requires two-factor sign-in/);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(security.text)![1]!;
    const made = await client.post('/account/api-keys', { name: 'sneaky', _csrf: csrf });
    assert.equal(made.status, 303, 'no key is made');
    assert.equal(made.location, '/account/security');
    const keys = await h()
      .server.container.storage.db.selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .select('api_keys.name')
      .where('accounts.email', '=', email)
      .execute();
    assert.ok(!keys.some((k) => k.name === 'sneaky'));

    await enrolOnPage(client, h().server.container.clock.now());
    assert.equal((await client.get('/dashboard')).status, 200);
    assert.equal((await client.get('/account/api-keys')).status, 200);
  });

  test("a team workspace that requires it: its member sees the workspaces list and that workspace's page, and can leave", async () => {
    const cast = await webCast(h().baseUrl, 'Strict team');
    await h()
      .server.container.storage.db.updateTable('accounts')
      .set({ require_2fa: 1 })
      .where('id', '=', cast.workspaceId)
      .execute();
    const { viewer } = cast.people;
    const viewerId = (
      await h()
        .server.container.storage.db.selectFrom('accounts')
        .select('id')
        .where('email', '=', viewer.email)
        .executeTakeFirstOrThrow()
    ).id;
    const list = await viewer.client.get('/account/workspaces');
    assert.equal(list.status, 200, list.text.slice(0, 300));
    assert.match(list.text, /Strict team/);
    const page = await viewer.client.get(`/account/workspaces/${cast.workspaceId}`);
    assert.equal(page.status, 200, page.text.slice(0, 300));
    assert.match(page.text, /requires two-factor sign-in/);
    assert.ok(!page.text.includes(cast.people.owner.email), 'no members are shown');
    const left = await viewer.client.post(
      `/account/workspaces/${cast.workspaceId}/members/${viewerId}/remove`,
      {},
      { from: `/account/workspaces/${cast.workspaceId}` },
    );
    assert.equal(left.status, 303, left.text.slice(0, 300));
    assert.ok(
      !(await viewer.client.get('/account/workspaces')).text.includes(`href="/account/workspaces/${cast.workspaceId}"`),
      'no longer a member',
    );
  });
});
