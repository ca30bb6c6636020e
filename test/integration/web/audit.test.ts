// The audit log's page (issue 33, docs/adr/0071): changes made in the web app are entries `via web`;
// the page filters by a GET form (a refused filter kept as typed, 422), pages, downloads CSV; who may see it; both engines.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { signedUp, type WebClient } from '../../support/web-client.ts';
import { TEST_ACTOR } from '../../support/audit-actor.ts';

onEachEngine('web: audit log', (h) => {
  let me: WebClient;
  let email: string;
  let key: string;
  let myId: number;

  before(async () => {
    ({ client: me, email } = await signedUp(h().baseUrl));
    ({ apiKey: key } = await h().server.container.accounts.createKey(email, 'web test', TEST_ACTOR));
    myId = (await h().request('GET', '/api/v1/account', { key })).body.data.id;
  });

  test('a link made, edited and deleted in the web app: three entries via the web app, shown on the page and in its CSV', async () => {
    const made = await me.post('/links/new', { url: 'https://example.com/web-audit', alias: 'web-audited', password: 'web-secret-pw' }, { from: '/links/new' });
    assert.equal(made.status, 303, made.text.slice(0, 500));
    const id = Number(/^\/links\/(\d+)\/edit$/.exec(made.location ?? '')?.[1]);
    const edited = await me.post(`/links/${id}/edit`, { url: 'https://example.com/web-audit-2', alias: 'web-audited' }, { from: `/links/${id}/edit` });
    assert.equal(edited.status, 303, edited.text.slice(0, 500));
    const gone = await me.post(`/links/${id}/delete`, {}, { from: `/links/${id}/delete` });
    assert.equal(gone.status, 303);

    const api = await h().request('GET', `/api/v1/workspaces/${myId}/audit?target_type=link&target_id=${id}`, { key });
    assert.deepEqual(
      api.body.data.map((e: { action: string; via: string; actor: { user_id: number }; key: unknown }) => [e.action, e.via, e.actor.user_id, e.key]),
      [
        ['link.deleted', 'web', myId, null],
        ['link.updated', 'web', myId, null],
        ['link.created', 'web', myId, null],
      ],
    );

    const page = await me.get(`/account/workspaces/${myId}/audit?action=link&target_id=${id}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<h1>Audit log<\/h1>/);
    assert.equal((page.text.match(/<td data-label="How">Web app<\/td>/g) ?? []).length, 3);
    assert.match(page.text, /link\.updated/);
    assert.match(page.text, /<del>https:\/\/example\.com\/web-audit<\/del> → <ins>https:\/\/example\.com\/web-audit-2<\/ins>/);
    assert.match(page.text, /<span class="mono">password<\/span>: changed/);
    assert.match(page.text, new RegExp(`href="/account/workspaces/${myId}/audit\\.csv\\?action=link&amp;target_id=${id}"`));
    assert.ok(!page.text.includes('web-secret-pw'));

    const csv = await me.get(`/account/workspaces/${myId}/audit.csv?action=link&target_id=${id}`);
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
    assert.equal(csv.text.trimEnd().split('\r\n').length, 4);
    assert.ok(!csv.text.includes('web-secret-pw'));
  });

  test('a refused filter: 422, each named, every value kept as typed; nothing read', async () => {
    const page = await me.get(`/account/workspaces/${myId}/audit?from=yesterday&actor=abc&action=link`);
    assert.equal(page.status, 422);
    assert.match(page.text, /class="error-summary"/);
    assert.match(page.text, /href="#f-from"/);
    assert.match(page.text, /href="#f-actor"/);
    assert.match(page.text, /name="from" type="date" value="yesterday"/);
    assert.match(page.text, /name="actor" type="text" value="abc"/);
    assert.match(page.text, /name="action" type="text" value="link"/);
    assert.doesNotMatch(page.text, /<table/);
  });

  test("a viewer of a team gets 403, a stranger's workspace is a 404, the signed out are sent to sign in", async () => {
    const owner = await h().account();
    const team = await h().request('POST', '/api/v1/workspaces', { key: owner.key, json: { name: 'Team' } });
    const teamId = team.body.data.id;
    const invited = await h().request('POST', `/api/v1/workspaces/${teamId}/invitations`, { key: owner.key, json: { email, role: 'viewer' } });
    assert.equal((await h().request('POST', `/api/v1/invitations/${invited.body.data.token}/accept`, { key })).status, 200);
    assert.equal((await me.get(`/account/workspaces/${teamId}/audit`)).status, 403);
    assert.equal((await me.get(`/account/workspaces/${teamId}/audit.csv`)).status, 403);
    assert.equal((await me.get(`/account/workspaces/${owner.id}/audit`)).status, 404);
    assert.equal((await me.get(`/account/workspaces/${owner.id}/audit.csv`)).status, 404);
    const anonymous = await fetch(`${h().baseUrl}/account/workspaces/${myId}/audit`, { redirect: 'manual' });
    assert.equal(anonymous.status, 303);
  });
});
