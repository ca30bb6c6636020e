// Teams in the web app (issue 33): the current workspace and its switcher, pages acting in it
// with the person's role there (403 pages that say why, another workspace's records 404), the
// workspaces pages, and the invitation page signed out, signed in, with another email, used.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { WebClient } from '../../support/web-client.ts';
import { webCast, webInvite, webJoin, webPerson, webWorkspace, type WebPerson } from './workspaces-support.ts';

const idOfEdit = (location: string | null) => Number(/^\/links\/(\d+)\/edit$/.exec(location ?? '')?.[1]);

onEachEngine('web: workspaces', (h) => {
  let cast: Awaited<ReturnType<typeof webCast>>;
  let teamLink: number;

  before(async () => {
    cast = await webCast(h().baseUrl, 'Acme <b>team</b>');
    const made = await cast.people.editor.client.post(
      '/links/new',
      { url: 'https://example.com/team' },
      { from: '/links/new' },
    );
    assert.equal(made.status, 303, made.text.slice(0, 500));
    teamLink = idOfEdit(made.location);
  });

  test('the header names the workspace and offers a switch; the pages act in the chosen one', async () => {
    const { owner } = cast.people;
    const page = await owner.client.get('/links');
    assert.match(page.text, /action="\/account\/workspaces\/switch"/);
    assert.match(page.text, /Acme &lt;b&gt;team&lt;\/b&gt;<\/option>/, 'stored names are escaped');
    assert.match(page.text, /example\.com\/team/);
    const mine = await owner.client.get('/account/workspaces');
    const personal = Number(/value="(\d+)">Personal<\/option>/.exec(mine.text)?.[1]);
    const back = await owner.client.post(
      '/account/workspaces/switch',
      { workspace: String(personal), next: `/links/${teamLink}/edit` },
      { from: '/links' },
    );
    assert.equal(back.status, 303);
    assert.equal(back.location, '/dashboard', "a record's page is not kept across a switch");
    const list = await owner.client.get('/links');
    assert.doesNotMatch(list.text, /example\.com\/team/);
    assert.equal((await owner.client.get(`/links/${teamLink}/edit`)).status, 404, "another workspace's record is 404");
    const notMine = await owner.client.post(
      '/account/workspaces/switch',
      { workspace: '2147480000' },
      { from: '/links' },
    );
    assert.equal(notMine.status, 404);
    await owner.client.post('/account/workspaces/switch', { workspace: String(cast.workspaceId) }, { from: '/links' });
    assert.match((await owner.client.get('/links')).text, /example\.com\/team/);
  });

  test('a viewer reads, sees no create or edit control, and meets a 403 page naming the role on every form', async () => {
    const { viewer } = cast.people;
    const list = await viewer.client.get('/links');
    assert.equal(list.status, 200);
    assert.match(list.text, /example\.com\/team/);
    assert.doesNotMatch(list.text, /href="\/links\/new"|href="\/links\/\d+\/(edit|delete)"/);
    assert.doesNotMatch((await viewer.client.get('/dashboard')).text, /action="\/dashboard\/shorten"/);
    assert.doesNotMatch((await viewer.client.get('/pixels')).text, /href="\/pixels\/new"/);
    assert.match((await cast.people.editor.client.get('/links')).text, /href="\/links\/new"/);
    const form = await viewer.client.get('/links/new');
    assert.equal(form.status, 403);
    assert.match(
      form.text,
      /needs the role editor or above in the workspace Acme &lt;b&gt;team&lt;\/b&gt;; yours is viewer/,
    );
    const post = await viewer.client.post('/links/new', { url: 'https://example.com/nope' }, { from: '/links' });
    assert.equal(post.status, 403);
    const del = await viewer.client.post(`/links/${teamLink}/delete`, {}, { from: '/links' });
    assert.equal(del.status, 403);
    assert.equal((await viewer.client.get('/domains/new')).status, 403);
    const edited = await cast.people.editor.client.get(`/links/${teamLink}/edit`);
    assert.equal(edited.status, 200, 'an editor edits');
    assert.equal((await cast.people.editor.client.get('/domains/new')).status, 403, 'domains need an admin');
    assert.equal((await cast.people.admin.client.get('/domains/new')).status, 200);
  });

  test('the workspace page: settings for owners only, members, invitations, keys with scopes shown once', async () => {
    const { owner, viewer, admin } = cast.people;
    const path = `/account/workspaces/${cast.workspaceId}`;
    const page = await owner.client.get(path);
    assert.equal(page.status, 200);
    assert.match(page.text, /href="\/account\/workspaces\/\d+\/audit"/);
    assert.match(page.text, /name="require_2fa"/);
    const bad = await owner.client.post(
      `${path}/settings`,
      { name: '', timezone: 'Mars/Base', require_2fa: '0' },
      { from: path },
    );
    assert.equal(bad.status, 422);
    assert.match(bad.text, /id="f-name-error"/);
    assert.match(bad.text, /id="f-timezone-error"/);
    const ownerId = /\/members\/(\d+)\/role"[\s\S]*?selected>Owner/.exec(page.text)?.[1];
    assert.ok(ownerId, "the owner's row has its role form");
    const demoted = await owner.client.post(`${path}/members/${ownerId}/role`, { role: 'admin' }, { from: path });
    assert.equal(demoted.status, 422);
    assert.match(demoted.text, /The last owner of a workspace cannot leave it or change role/);
    const asViewer = await viewer.client.get(path);
    assert.equal(asViewer.status, 200);
    assert.doesNotMatch(asViewer.text, /name="require_2fa"/);
    assert.equal(
      (await viewer.client.post(`${path}/settings`, { name: 'x', timezone: 'UTC' }, { from: path })).status,
      403,
    );
    assert.equal(
      (await admin.client.post(`${path}/settings`, { name: 'x', timezone: 'UTC' }, { from: path })).status,
      403,
    );
    const badKey = await viewer.client.post(
      `${path}/api-keys`,
      { name: 'ci', scopes: ['links:read', 'nope'], expires_at: '2020-01-01' },
      { from: path },
    );
    assert.equal(badKey.status, 422);
    assert.match(badKey.text, /id="f-scopes-error"/);
    assert.match(badKey.text, /id="f-expires_at-error"/);
    assert.match(badKey.text, /name="name" type="text" value="ci"/, 'the form keeps what was typed');
    const key = await viewer.client.post(
      `${path}/api-keys`,
      { name: 'ci', scopes: ['links:read'], expires_at: '2999-01-01' },
      { from: path },
    );
    assert.equal(key.status, 200, key.text.slice(0, 300));
    const plaintext = /id="made-key"[^>]*value="(lpx_[A-Za-z0-9_-]{43})"/.exec(key.text)?.[1];
    assert.ok(plaintext);
    const api = await h().request('GET', '/api/v1/links', { key: plaintext });
    assert.equal(api.status, 200, 'the key reads links of the workspace');
    assert.equal(
      (await h().request('POST', '/api/v1/links', { key: plaintext, json: { url: 'https://example.com/k' } })).status,
      403,
    );
    assert.doesNotMatch((await viewer.client.get(path)).text, /lpx_[A-Za-z0-9_-]{43}/, 'the key is shown once');
    assert.match(
      (await owner.client.get(path)).text,
      /<td data-label="Scopes">links:read<\/td>/,
      'an owner sees every key',
    );
  });

  test('the invitation page: signed out, wrong email, join, then used (410)', async () => {
    const { owner } = cast.people;
    const invited = `inv-${Date.now()}@example.com`;
    const token = await webInvite(owner, cast.workspaceId, invited, 'editor');
    const anonymous = new WebClient(h().baseUrl);
    const out = await anonymous.get(`/signup/invitation/${token}`);
    assert.equal(out.status, 200);
    assert.match(out.text, /invited to the workspace Acme &lt;b&gt;team&lt;\/b&gt; as Editor/);
    assert.match(out.text, new RegExp(`href="/login\\?next=%2Fsignup%2Finvitation%2F${token}"`));
    const signup = await anonymous.get(`/signup?next=${encodeURIComponent(`/signup/invitation/${token}`)}`);
    assert.match(signup.text, /name="next" value="\/signup\/invitation\//);
    const made = await anonymous.post(
      '/signup',
      { name: 'New', email: invited, password: 'correct horse battery staple', next: `/signup/invitation/${token}` },
      { from: '/signup' },
    );
    assert.equal(made.status, 303, made.text.slice(0, 300));
    assert.equal(made.location, `/signup/invitation/${token}`);
    const someone: WebPerson = await webPerson(h().baseUrl);
    const wrong = await someone.client.get(`/signup/invitation/${token}`);
    assert.match(wrong.text, /invitation was sent to another address/);
    assert.equal((await webJoin(someone, token)).status, 403);
    const page = await anonymous.get(`/signup/invitation/${token}`);
    assert.match(page.text, /Join the workspace/);
    const joined = await webJoin({ client: anonymous, email: invited }, token);
    assert.equal(joined.status, 303);
    assert.match((await anonymous.get('/links')).text, /example\.com\/team/, 'the joined workspace is the current one');
    assert.equal((await anonymous.get(`/signup/invitation/${token}`)).status, 410);
    assert.equal((await new WebClient(h().baseUrl).get('/signup/invitation/' + 'x'.repeat(43))).status, 404);
  });

  test('a removed member falls back to their personal workspace at the next request', async () => {
    const { owner } = cast.people;
    const gone = await webPerson(h().baseUrl);
    await webJoin(gone, await webInvite(owner, cast.workspaceId, gone.email, 'editor'));
    assert.match((await gone.client.get('/links')).text, /example\.com\/team/);
    const members = await owner.client.get(`/account/workspaces/${cast.workspaceId}`);
    const userId = new RegExp(`${gone.email.replace('.', '\\.')}</td>[\\s\\S]*?/members/(\\d+)/role`).exec(
      members.text,
    )?.[1];
    assert.ok(userId, 'the member row has its forms');
    const removed = await owner.client.post(
      `/account/workspaces/${cast.workspaceId}/members/${userId}/remove`,
      {},
      { from: `/account/workspaces/${cast.workspaceId}` },
    );
    assert.equal(removed.status, 303, removed.text.slice(0, 300));
    const after = await gone.client.get('/links');
    assert.equal(after.status, 200);
    assert.doesNotMatch(after.text, /example\.com\/team/);
    assert.equal((await gone.client.get(`/links/${teamLink}/edit`)).status, 404);
  });

  test('an owner deletes a team workspace after typing its name; nobody else, and never a personal one', async () => {
    const { owner, admin } = cast.people;
    const temp = await webWorkspace(owner, 'Temporary');
    const path = `/account/workspaces/${temp}/delete`;
    assert.equal((await owner.client.get(path)).status, 200);
    assert.equal((await admin.client.get(`/account/workspaces/${cast.workspaceId}/delete`)).status, 403);
    const wrong = await owner.client.post(path, { confirm: 'Temporar' }, { from: path });
    assert.equal(wrong.status, 422);
    assert.match(wrong.text, /id="f-confirm-error"/);
    assert.match(wrong.text, /name="confirm" type="text" value="Temporar"/);
    const gone = await owner.client.post(path, { confirm: 'Temporary' }, { from: path });
    assert.equal(gone.status, 303);
    assert.equal(gone.location, '/account/workspaces');
    assert.equal((await owner.client.get(`/account/workspaces/${temp}`)).status, 404);
    assert.equal(
      (await owner.client.get('/links')).status,
      200,
      'the deleted current workspace falls back to the personal one',
    );
    const personal = Number(
      /value="(\d+)">Personal<\/option>/.exec((await owner.client.get('/links')).text)?.[1] ??
        /\/account\/workspaces\/(\d+)"[^>]*>[^<]*<\/a> <span class="badge/.exec(
          (await owner.client.get('/account/workspaces')).text,
        )?.[1],
    );
    assert.ok(personal > 0);
    assert.equal((await owner.client.get(`/account/workspaces/${personal}/delete`)).status, 404);
    await owner.client.post('/account/workspaces/switch', { workspace: String(cast.workspaceId) }, { from: '/links' });
  });
});
