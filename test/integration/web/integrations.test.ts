// The integrations page (docs/design/integrations.md): a workspace's admins list, add and remove
// its Stripe and Shopify endpoints without JavaScript; the new endpoint is shown to copy; a
// refused form keeps what was typed; editors and viewers are refused; both engines.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import Stripe from 'stripe';
import { onEachEngine } from '../../support/harness.ts';
import { fieldError } from './account-support.ts';
import { webCast, type WebPerson } from './workspaces-support.ts';

const SECRET = 'whsec_web_0123456789abcdefghijklmnop';

onEachEngine('web: integrations', (h) => {
  let workspaceId: number;
  let people: Record<'owner' | 'admin' | 'editor' | 'viewer', WebPerson>;
  const page = () => `/account/workspaces/${workspaceId}/integrations`;

  before(async () => {
    ({ workspaceId, people } = await webCast(h().baseUrl, 'Integrated'));
  });

  test('an admin adds a Stripe integration: the endpoint is shown to copy, listed, takes signed events, and goes when removed', async () => {
    const admin = people.admin.client;
    const empty = await admin.get(page());
    assert.equal(empty.status, 200);
    assert.match(empty.text, /<h1>Integrations · Integrated<\/h1>/);
    assert.match(empty.text, /No integrations yet\./);

    const added = await admin.post(page(), { type: 'stripe', secret: SECRET }, { from: page() });
    assert.equal(added.status, 201, added.text.slice(0, 500));
    const url = /id="made-url" class="mono" type="text" value="([^"]+)"/.exec(added.text)?.[1];
    assert.match(url ?? '', /^http:\/\/short\.test\/api\/integrations\/[A-Za-z0-9_-]{43}$/);
    assert.match(added.text, new RegExp(`data-copy="${url}"`), 'a copy button');
    assert.ok(!added.text.includes(SECRET), 'the secret is not shown back');

    const listed = await admin.get(page());
    assert.match(listed.text, new RegExp(`<code class="url">${url}</code>`));
    assert.match(listed.text, /<td data-label="Sender">Stripe<\/td>/);

    // The endpoint is live: a signed event of another type is taken and ignored.
    const payload = JSON.stringify({ id: 'evt_web', type: 'customer.created', data: { object: {} } });
    const path = new URL(url!).pathname;
    const posted = await h().request('POST', path, {
      body: payload,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }),
      },
    });
    assert.deepEqual([posted.status, posted.body?.result], [200, 'ignored']);

    const id = /\/integrations\/(\d+)\/remove/.exec(listed.text)?.[1];
    const removed = await admin.post(`${page()}/${id}/remove`, {}, { from: page() });
    assert.equal(removed.status, 303);
    assert.equal(removed.location, page());
    const after = await admin.get(page());
    assert.match(after.text, /The integration was removed/);
    assert.match(after.text, /No integrations yet\./);
    assert.equal(
      (await h().request('POST', path, { body: payload, headers: { 'content-type': 'application/json' } })).status,
      404,
    );
  });

  test('a refused form keeps what was typed and names the field; a form without its CSRF token changes nothing', async () => {
    const owner = people.owner.client;
    const refused = await owner.post(page(), { type: 'shopify', secret: 'has a space' }, { from: page() });
    assert.equal(refused.status, 422);
    assert.equal(fieldError(refused.text, 'secret'), 'The secret format is invalid.');
    assert.match(refused.text, /<option value="shopify" selected>/);
    assert.match(refused.text, /name="secret" type="text" value="has a space"/);
    const noType = await owner.post(page(), { type: 'paypal', secret: 'ok' }, { from: page() });
    assert.equal(fieldError(noType.text, 'type'), 'The selected type is invalid.');

    const forged = await owner.post(page(), { type: 'stripe', secret: SECRET, _csrf: 'forged' });
    assert.ok(forged.status >= 400 && forged.status < 500, `refused: ${forged.status}`);
    assert.match((await owner.get(page())).text, /No integrations yet\./);
  });

  test('editors and viewers are refused the page and its forms; the workspace page links to it for admins only', async () => {
    for (const role of ['editor', 'viewer'] as const) {
      const client = people[role].client;
      assert.equal((await client.get(page())).status, 403, role);
      const csrf = await client.csrf(`/account/workspaces/${workspaceId}`);
      const posted = await client.post(page(), { type: 'stripe', secret: SECRET, _csrf: csrf });
      assert.equal(posted.status, 403, `${role} posts`);
      const workspace = await client.get(`/account/workspaces/${workspaceId}`);
      assert.ok(!workspace.text.includes(`href="${page()}"`), `${role}: no link`);
    }
    const admin = await people.admin.client.get(`/account/workspaces/${workspaceId}`);
    assert.match(admin.text, new RegExp(`<a href="${page()}">Integrations</a>`));
  });
});
