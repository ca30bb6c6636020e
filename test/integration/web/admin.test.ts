import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { PASSWORD, WebClient, signedUp } from '../../support/web-client.ts';
import { makeLink, redirectsTo, unique, visit } from '../redirect/redirect-support.ts';
import { TEST_ACTOR } from '../../support/audit-actor.ts';
import { insertRollups } from '../../support/rollup-rows.ts';

const ROUTES = {
  get: ['/admin', '/admin/accounts', '/admin/workspaces', '/admin/links', '/admin/accounts/1/delete'],
  post: [
    '/admin/accounts/1/suspend',
    '/admin/accounts/1/reinstate',
    '/admin/accounts/1/delete',
    '/admin/workspaces/1/suspend',
    '/admin/workspaces/1/reinstate',
    '/admin/links/1/disable',
    '/admin/links/1/enable',
  ],
};

/** An account with an API key, a password and a signed-in browser. */
async function member(h: Harness, name?: string) {
  const made = await h.account();
  await h.server.container.signIn.setPassword(made.email, PASSWORD);
  if (name !== undefined)
    await h.server.container.storage.db.updateTable('accounts').set({ name }).where('id', '=', made.id).execute();
  const client = new WebClient(h.baseUrl);
  const login = await client.post('/login', { email: made.email, password: PASSWORD }, { from: '/login' });
  assert.equal(login.status, 303, login.text);
  return { ...made, client };
}

const accountRow = (h: Harness, id: number) =>
  h.server.container.storage.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
const sessionCount = async (h: Harness, id: number) =>
  (await h.server.container.storage.db.selectFrom('sessions').select('id').where('account_id', '=', id).execute())
    .length;

onEachEngine('web: /admin', (h) => {
  let op: WebClient;
  let opId: number;

  before(async () => {
    // The first account of the instance is its operator.
    const made = await signedUp(h().baseUrl);
    op = made.client;
    opId = (await h().server.container.accounts.getAccount(1)).id;
    assert.equal((await accountRow(h(), opId))?.email, made.email);
  });

  test('anonymous: every admin route sends to the sign-in page', async () => {
    const anon = new WebClient(h().baseUrl);
    for (const path of ROUTES.get) {
      const res = await anon.get(path);
      assert.equal(res.status, 303, path);
      assert.equal(res.location, `/login?next=${encodeURIComponent(path)}`);
    }
    for (const path of ROUTES.post) {
      const res = await anon.post(path, {}, { from: '/login' });
      assert.equal(res.status, 303, path);
      assert.match(res.location ?? '', /^\/login\?next=/);
    }
  });

  test('an account that is no operator gets 404 on every admin route, and changes nothing', async () => {
    const m = await member(h());
    const other = await h().account();
    const link = await makeLink(h(), other.key);
    const paths = [...ROUTES.get, '/admin/accounts/abc/delete', `/admin/accounts/${other.id}/delete`];
    for (const path of paths) assert.equal((await m.client.get(path)).status, 404, path);
    for (const path of [
      `/admin/accounts/${other.id}/suspend`,
      `/admin/accounts/${other.id}/delete`,
      `/admin/links/${link.id}/disable`,
    ]) {
      const res = await m.client.post(path, { email: other.email }, { from: '/admin' });
      assert.equal(res.status, 404, path);
    }
    assert.equal((await accountRow(h(), other.id))?.suspended_at, null);
    assert.equal((await h().request('GET', `/api/v1/links/${link.id}`, { key: other.key })).body.data.disabled, 0);
    // The navigation offers it to operators only.
    assert.doesNotMatch((await m.client.get('/admin')).text, /href="\/admin"/);
    assert.match((await op.get('/admin')).text, /href="\/admin" aria-current="page"/);
  });

  test('overview: instance totals from the counters and the rollups', async () => {
    const db = h().server.container.storage.db;
    const before = await h().server.container.admin.totals('UTC');
    const m = await h().account();
    const link = await makeLink(h(), m.key);
    const today = new Date().toISOString().slice(0, 10);
    await db.updateTable('links').set({ clicks: 7 }).where('id', '=', link.id).execute();
    await insertRollups(h().server.container.storage, [
      { link_id: link.id, dimension: 'total', day: today, value: '', count: 5 },
      { link_id: link.id, dimension: 'total', day: '2001-01-01', value: '', count: 2 },
      { link_id: link.id, dimension: 'country', day: today, value: 'US', count: 5 },
    ]);
    const after = await h().server.container.admin.totals('UTC');
    assert.deepEqual(after, {
      accounts: before.accounts + 1,
      links: before.links + 1,
      clicks: before.clicks + 7,
      recentClicks: before.recentClicks + 5,
    });
    const page = await op.get('/admin');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    for (const n of Object.values(after))
      assert.ok(page.text.includes(`<p class="value">${n.toLocaleString('en')}</p>`), `total ${n} shown`);
    assert.match(page.text, /href="\/admin\/accounts"/);
    assert.match(page.text, /href="\/admin\/links"/);
  });

  test('accounts: search by email or name, paged, values escaped', async () => {
    const tag = unique('acct');
    const evil = await member(h(), `<script>alert("${tag}")</script>`);
    const made = [];
    for (let i = 0; i < 11; i++) made.push(await h().account(`${tag}-${i}@example.com`));
    const byEmail = await op.get(`/admin/accounts?q=${tag}-&per_page=10`);
    assert.equal(byEmail.status, 200);
    assert.ok(byEmail.text.includes(`${tag}-10@example.com`), 'newest first');
    assert.ok(!byEmail.text.includes(`${tag}-0@example.com`), 'ten per page');
    assert.match(byEmail.text, /rel="next"/);
    const second = await op.get(`/admin/accounts?q=${tag}-&per_page=10&page=2`);
    assert.ok(second.text.includes(`${tag}-0@example.com`));
    const byName = await op.get(`/admin/accounts?q=${encodeURIComponent(`alert("${tag}`)}`);
    assert.ok(byName.text.includes(evil.email));
    assert.ok(!byName.text.includes('<script>alert'), 'a stored <script> is escaped');
    assert.ok(byName.text.includes('&lt;script&gt;alert'));
    // List parameters under the one reading of numbers (issue 30): nonsense is a 422 naming each field.
    const refused = await op.get('/admin/accounts?page=-4&per_page=x');
    assert.equal(refused.status, 422);
    assert.match(refused.text, /The page field must be at least 1\./);
    assert.match(refused.text, /The per page field must be an integer\./);
  });

  test('suspend: keys answer 401, sessions end, links answer as disabled (cached too); reinstate undoes it', async () => {
    const m = await member(h());
    const link = await makeLink(h(), m.key);
    const alias = link.alias as string;
    // Cached by the redirect (and served by its fast path) before the suspension.
    assert.equal(await redirectsTo(h(), `/${alias}`), 'https://example.com/');
    assert.equal(await redirectsTo(h(), `/${alias}`), 'https://example.com/');
    // Signed in (an operator's page answers 404 rather than sending to the sign-in page).
    assert.equal((await m.client.get('/admin')).status, 404);

    const res = await op.post(
      `/admin/accounts/${m.id}/suspend`,
      { next: '/admin/accounts?q=x' },
      { from: '/admin/accounts' },
    );
    assert.equal(res.status, 303);
    assert.equal(res.location, '/admin/accounts?q=x');
    assert.match((await op.get('/admin/accounts?q=' + encodeURIComponent(m.email))).text, /Suspended since/);
    assert.notEqual((await accountRow(h(), m.id))?.suspended_at, null);

    assert.equal((await h().request('GET', '/api/v1/account', { key: m.key })).status, 401);
    assert.equal(await sessionCount(h(), m.id), 0);
    const gone = await m.client.get('/admin');
    assert.equal(gone.status, 303);
    assert.match(gone.location ?? '', /^\/login/);
    const login = await new WebClient(h().baseUrl).post(
      '/login',
      { email: m.email, password: PASSWORD },
      { from: '/login' },
    );
    assert.equal(login.status, 422, 'a suspended account cannot sign in');
    for (const method of ['GET', 'HEAD']) {
      const off = await visit(h(), `/${alias}`, {}, method);
      assert.equal(off.status, 404, method);
      if (method === 'GET') assert.match(off.text, /This link has been disabled/);
    }
    assert.equal((await visit(h(), `/${alias}/+`)).status, 404);
    // The admin list says why.
    assert.match((await op.get(`/admin/links?q=${alias}`)).text, /owner suspended/);

    const back = await op.post(`/admin/accounts/${m.id}/reinstate`, {}, { from: '/admin/accounts' });
    assert.equal(back.status, 303);
    assert.equal(back.location, '/admin/accounts');
    assert.equal((await accountRow(h(), m.id))?.suspended_at, null);
    assert.equal((await h().request('GET', '/api/v1/account', { key: m.key })).status, 200);
    assert.equal(await redirectsTo(h(), `/${alias}`), 'https://example.com/');
    const again = await new WebClient(h().baseUrl).post(
      '/login',
      { email: m.email, password: PASSWORD },
      { from: '/login' },
    );
    assert.equal(again.status, 303);
  });

  test('workspaces: listed with members and links, searched and paged; a team one is suspended apart from its people; no team rows among the accounts', async () => {
    const owner = await member(h(), 'Team Owner');
    const teamName = `Crew ${Date.now()}`;
    const team = (await h().request('POST', '/api/v1/workspaces', { key: owner.key, json: { name: teamName } })).body
      .data;
    const teamKey = (
      await h().request('POST', `/api/v1/workspaces/${team.id}/api-keys`, { key: owner.key, json: { name: 'k' } })
    ).body.data.key;
    const link = await makeLink(h(), teamKey);
    const alias = link.alias as string;
    assert.equal(await redirectsTo(h(), `/${alias}`), 'https://example.com/');

    const listed = await op.get(`/admin/workspaces?q=${encodeURIComponent(teamName)}`);
    assert.equal(listed.status, 200);
    const row = new RegExp(`<td>${teamName}</td>\\s*<td>Team</td>\\s*<td class="num">1</td>\\s*<td class="num">1</td>`);
    assert.match(listed.text, row, 'name, kind, members, links');
    const all = await op.get('/admin/workspaces?per_page=10');
    assert.match(all.text, /<td>Personal<\/td>/);
    assert.equal((await op.get('/admin/workspaces?page=x')).status, 422);
    const accounts = await op.get('/admin/accounts?per_page=100');
    assert.doesNotMatch(accounts.text, /#workspace-/, 'team workspaces are not accounts');

    const off = await op.post(
      `/admin/workspaces/${team.id}/suspend`,
      { next: '/admin/workspaces' },
      { from: '/admin/workspaces' },
    );
    assert.equal(off.status, 303);
    assert.match((await op.get(`/admin/workspaces?q=${encodeURIComponent(teamName)}`)).text, /Suspended since/);
    const disabled = await visit(h(), `/${alias}`);
    assert.equal(disabled.status, 404);
    assert.match(disabled.text, /This link has been disabled/);
    assert.equal(
      (await h().request('GET', '/api/v1/links', { key: teamKey })).status,
      401,
      "the workspace's keys stop",
    );
    assert.equal(
      (await h().request('GET', '/api/v1/links', { key: owner.key })).status,
      200,
      'its people keep their own workspace',
    );
    assert.equal((await owner.client.get('/dashboard')).status, 200, 'and their sessions');
    assert.equal(await sessionCount(h(), owner.id), 1);
    // Closed to its members too: the owner's own key reaches none of its pages, the web app falls back.
    assert.equal((await h().request('GET', `/api/v1/workspaces/${team.id}/members`, { key: owner.key })).status, 404);
    assert.equal(
      (
        await h().request('POST', `/api/v1/workspaces/${team.id}/invitations`, {
          key: owner.key,
          json: { email: 'x@example.com', role: 'viewer' },
        })
      ).status,
      404,
    );
    assert.doesNotMatch(
      (await h().request('GET', '/api/v1/workspaces', { key: owner.key })).text,
      new RegExp(teamName),
    );

    const personal = await op.post(`/admin/workspaces/${owner.id}/suspend`, {}, { from: '/admin/workspaces' });
    assert.equal(personal.status, 422, 'a personal workspace goes with its account');
    assert.equal((await accountRow(h(), owner.id))?.suspended_at, null);

    const on = await op.post(`/admin/workspaces/${team.id}/reinstate`, {}, { from: '/admin/workspaces' });
    assert.equal(on.status, 303);
    assert.equal(on.location, '/admin/workspaces');
    assert.equal(await redirectsTo(h(), `/${alias}`), 'https://example.com/');
    assert.equal((await h().request('GET', '/api/v1/links', { key: teamKey })).status, 200);
  });

  test('an operator cannot suspend or delete their own account: 422 with the reason, nothing changed', async () => {
    const suspend = await op.post(`/admin/accounts/${opId}/suspend`, {}, { from: '/admin/accounts' });
    assert.equal(suspend.status, 422);
    assert.match(suspend.text, /You cannot suspend your own account\./);
    const me = await accountRow(h(), opId);
    const remove = await op.post(`/admin/accounts/${opId}/delete`, { email: me?.email }, { from: '/admin/accounts' });
    assert.equal(remove.status, 422);
    assert.match(remove.text, /You cannot delete your own account\./);
    assert.equal((await accountRow(h(), opId))?.suspended_at, null);
    assert.equal((await op.get('/admin')).status, 200);
    // No form to delete oneself is offered.
    assert.doesNotMatch(
      (await op.get(`/admin/accounts/${opId}/delete`)).text,
      /action="\/admin\/accounts\/\d+\/delete"/,
    );
  });

  test('CSRF missing or wrong: 403 and nothing written', async () => {
    const m = await h().account();
    const link = await makeLink(h(), m.key);
    for (const _csrf of ['', 'forged-token']) {
      const form = _csrf === '' ? { _csrf: undefined } : { _csrf };
      for (const path of [
        `/admin/accounts/${m.id}/suspend`,
        `/admin/accounts/${m.id}/delete`,
        `/admin/links/${link.id}/disable`,
      ]) {
        const res = await op.post(path, { ...form, email: m.email });
        assert.equal(res.status, 403, `${path} with ${_csrf || 'no token'}`);
      }
    }
    const row = await accountRow(h(), m.id);
    assert.ok(row, 'not deleted');
    assert.equal(row.suspended_at, null);
    assert.equal((await h().request('GET', `/api/v1/links/${link.id}`, { key: m.key })).body.data.disabled, 0);
  });

  test('unknown ids: 404', async () => {
    for (const path of [
      '/admin/accounts/999999/delete',
      '/admin/accounts/0/delete',
      '/admin/accounts/99999999999/delete',
    ]) {
      assert.equal((await op.get(path)).status, 404, path);
    }
    for (const path of [
      '/admin/accounts/999999/suspend',
      '/admin/accounts/999999/reinstate',
      '/admin/accounts/999999/delete',
      '/admin/links/999999/disable',
      '/admin/links/abc/enable',
    ]) {
      assert.equal((await op.post(path, { email: 'x@example.com' }, { from: '/admin' })).status, 404, path);
    }
  });

  test('delete: a confirmation page; the email typed wrong is a 422 next to the field; typed right deletes everything', async () => {
    const m = await member(h());
    const link = await makeLink(h(), m.key);
    const page = await op.get(`/admin/accounts/${m.id}/delete`);
    assert.equal(page.status, 200);
    assert.ok(page.text.includes(m.email));
    assert.match(page.text, /<label for="f-email">/);

    const wrong = await op.post(
      `/admin/accounts/${m.id}/delete`,
      { email: 'someone-else@example.com' },
      { from: `/admin/accounts/${m.id}/delete` },
    );
    assert.equal(wrong.status, 422);
    assert.match(
      wrong.text,
      /<p class="field-error" id="f-email-error">Type the account’s email address exactly to confirm\.|<p class="field-error" id="f-email-error">Type the account&#39;s email address exactly to confirm\./,
    );
    assert.match(wrong.text, /class="error-summary"/);
    assert.match(wrong.text, /value="someone-else@example.com"/);
    assert.ok(await accountRow(h(), m.id), 'nothing deleted');

    const right = await op.post(
      `/admin/accounts/${m.id}/delete`,
      { email: m.email.toUpperCase() },
      { from: `/admin/accounts/${m.id}/delete` },
    );
    assert.equal(right.status, 303);
    assert.equal(right.location, '/admin/accounts');
    assert.equal(await accountRow(h(), m.id), undefined);
    assert.equal((await h().request('GET', '/api/v1/account', { key: m.key })).status, 401);
    assert.equal(await sessionCount(h(), m.id), 0);
    assert.equal((await visit(h(), `/${link.alias}`)).status, 404);
    assert.match((await op.get('/admin/accounts')).text, /and everything it owned were deleted/);
  });

  test('links: every account’s links, searched by alias, URL, title or owner; disable and enable through core', async () => {
    const a = await h().account();
    const b = await h().account();
    const tag = unique('lnk');
    const mine = await makeLink(h(), a.key, {
      url: `https://example.com/${tag}`,
      title: `<script>alert("${tag}")</script>`,
    });
    const theirs = await makeLink(h(), b.key, { alias: `${tag}b` });
    const byUrl = await op.get(`/admin/links?q=${tag}`);
    assert.equal(byUrl.status, 200);
    assert.ok(byUrl.text.includes(`/${mine.alias}`) && byUrl.text.includes(`/${theirs.alias}`));
    assert.ok(!byUrl.text.includes('<script>alert'), 'a stored <script> is escaped');
    assert.ok(byUrl.text.includes('&lt;script&gt;alert'));
    assert.match(byUrl.text, /<div class="table-wrap"[ >]/);
    const byOwner = await op.get(`/admin/links?q=${encodeURIComponent(b.email)}`);
    assert.ok(byOwner.text.includes(`/${theirs.alias}`) && !byOwner.text.includes(`/${mine.alias}`));

    assert.equal(await redirectsTo(h(), `/${theirs.alias}`), 'https://example.com/');
    const off = await op.post(
      `/admin/links/${theirs.id}/disable`,
      { next: `/admin/links?q=${tag}` },
      { from: '/admin/links' },
    );
    assert.equal(off.status, 303);
    assert.equal(off.location, `/admin/links?q=${tag}`);
    assert.equal((await h().request('GET', `/api/v1/links/${theirs.id}`, { key: b.key })).body.data.disabled, 1);
    const visited = await visit(h(), `/${theirs.alias}`);
    assert.equal(visited.status, 404);
    assert.match(visited.text, /This link has been disabled/);
    assert.match((await op.get(`/admin/links?q=${tag}`)).text, /is disabled: its visitors see/);
    // The owner cannot undo a takedown, one by one or in bulk.
    const undo = await h().request('PUT', `/api/v1/links/${theirs.id}`, { key: b.key, form: { disabled: 0 } });
    assert.equal(undo.status, 422, undo.text);
    assert.match(undo.body.message.disabled[0], /disabled by the operator/);
    assert.equal(await h().server.container.links.bulk(b.id, { kind: 'enable' }, { ids: [theirs.id] }, TEST_ACTOR), 0);
    assert.equal((await visit(h(), `/${theirs.alias}`)).status, 404);

    const on = await op.post(
      `/admin/links/${theirs.id}/enable`,
      { next: 'https://evil.example/' },
      { from: '/admin/links' },
    );
    assert.equal(on.status, 303);
    assert.equal(on.location, '/admin/links', 'returns only to admin pages');
    assert.equal((await h().request('GET', `/api/v1/links/${theirs.id}`, { key: b.key })).body.data.disabled, 0);
    assert.equal(await redirectsTo(h(), `/${theirs.alias}`), 'https://example.com/');
  });
});
