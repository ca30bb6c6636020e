// The audit log's page (docs/design/teams.md): changes made in the web app are entries `via web`;
// the page filters by a GET form (a refused filter kept as typed, 422), pages, downloads CSV; who may see it; both engines.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { PASSWORD, signedUp, type WebClient } from '../../support/web-client.ts';
import { multipartBody } from '../../support/multipart.ts';
import { greenPng } from '../../support/qr-logos.ts';
import { createKeyOnPage } from './account-support.ts';
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
    const made = await me.post(
      '/links/new',
      { url: 'https://example.com/web-audit', alias: 'web-audited', password: 'web-secret-pw' },
      { from: '/links/new' },
    );
    assert.equal(made.status, 303, made.text.slice(0, 500));
    const id = Number(/^\/links\/(\d+)\/edit$/.exec(made.location ?? '')?.[1]);
    const edited = await me.post(
      `/links/${id}/edit`,
      { url: 'https://example.com/web-audit-2', alias: 'web-audited' },
      { from: `/links/${id}/edit` },
    );
    assert.equal(edited.status, 303, edited.text.slice(0, 500));
    const gone = await me.post(`/links/${id}/delete`, {}, { from: `/links/${id}/delete` });
    assert.equal(gone.status, 303);

    const api = await h().request('GET', `/api/v1/workspaces/${myId}/audit?target_type=link&target_id=${id}`, { key });
    assert.deepEqual(
      api.body.data.map((e: { action: string; via: string; actor: { user_id: number }; key: unknown }) => [
        e.action,
        e.via,
        e.actor.user_id,
        e.key,
      ]),
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
    assert.match(
      page.text,
      /<del>https:\/\/example\.com\/web-audit<\/del> → <ins>https:\/\/example\.com\/web-audit-2<\/ins>/,
    );
    assert.match(page.text, /<span class="mono">password<\/span>: changed/);
    assert.match(
      page.text,
      new RegExp(`href="/account/workspaces/${myId}/audit\\.csv\\?action=link&amp;target_id=${id}"`),
    );
    assert.ok(!page.text.includes('web-secret-pw'));

    const csv = await me.get(`/account/workspaces/${myId}/audit.csv?action=link&target_id=${id}`);
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
    assert.equal(csv.text.trimEnd().split('\r\n').length, 4);
    assert.ok(!csv.text.includes('web-secret-pw'));
  });

  test('a person\'s own changes in their personal workspace\'s log, via the web app, secrets as "changed" and never a value', async () => {
    const profile = await me.post(
      '/account/profile',
      { name: 'Audited Name', email, timezone: 'Europe/Paris' },
      { from: '/account' },
    );
    assert.equal(profile.status, 303, profile.text.slice(0, 500));
    const next = 'a brand new passphrase';
    const password = await me.post(
      '/account/password',
      { current_password: PASSWORD, new_password: next, new_password_confirmation: next },
      { from: '/account' },
    );
    assert.equal(password.status, 303, password.text.slice(0, 500));
    const made = await createKeyOnPage(me, 'audited key');
    const keys = await h().request('GET', `/api/v1/workspaces/${myId}/api-keys`, { key });
    const keyId = keys.body.data.find((k: { name: string }) => k.name === 'audited key').id;
    assert.equal((await me.post(`/account/api-keys/${keyId}/revoke`, {}, { from: '/account/api-keys' })).status, 303);

    // Two-factor has the web page as its only door: the service the page calls.
    const { twoFactor } = h().server.container.security;
    const account = await h().server.container.accounts.getAccount(myId);
    const { secret } = await twoFactor.begin(account);
    const codes = await twoFactor.confirm(
      account,
      TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: h().server.container.clock.now() }),
    );
    const fresh = await twoFactor.regenerate(account, codes[0]!);
    await twoFactor.disable(account, next, fresh[0]!);

    const domain = await h().request('POST', '/api/v1/domains', {
      key,
      form: { name: `audit-${randomBytes(3).toString('hex')}.example.com` },
    });
    h().dns.publishTxt(domain.body.data.verification.txt_name, domain.body.data.verification.token);
    assert.equal(
      (await me.post(`/domains/${domain.body.data.id}/verify`, {}, { from: `/domains/${domain.body.data.id}/edit` }))
        .status,
      303,
    );
    const link = await h().request('POST', '/api/v1/links', { key, form: { url: 'https://example.com/web-logo' } });
    const upload = await multipartBody([{ field: 'logo', bytes: greenPng(), name: 'logo.png' }], {}, 'PUT');
    assert.equal(
      (await h().request('PUT', `/api/v1/links/${link.body.data.id}/qr-logo`, { key, ...upload })).status,
      200,
    );
    assert.equal(
      (await me.post(`/links/${link.body.data.id}/qr/logo/remove`, {}, { from: `/links/${link.body.data.id}/qr` }))
        .status,
      303,
    );

    const log = await h().request('GET', `/api/v1/workspaces/${myId}/audit?per_page=100`, { key });
    const web = log.body.data.filter((e: { via: string }) => e.via === 'web');
    const seen = web.map((e: { action: string; target: { type: string }; changes: Record<string, unknown> }) => [
      e.action,
      e.target.type,
      Object.keys(e.changes).sort().join(','),
    ]);
    for (const expected of [
      ['account.updated', 'account', 'name,timezone'],
      ['account.password_changed', 'account', 'password'],
      ['api_key.created', 'api_key', 'name,prefix'],
      ['api_key.revoked', 'api_key', ''],
      ['account.two_factor_enabled', 'account', 'recovery_codes,two_factor'],
      ['account.recovery_codes_regenerated', 'account', 'recovery_codes'],
      ['account.two_factor_disabled', 'account', 'recovery_codes,two_factor'],
      ['domain.verified', 'domain', 'verified_at'],
      ['link.updated', 'link', 'qr_logo'],
    ]) {
      assert.ok(
        seen.some((s: string[]) => JSON.stringify(s) === JSON.stringify(expected)),
        `${expected.join(' ')} in ${JSON.stringify(seen)}`,
      );
    }
    for (const e of web) assert.equal(e.actor.user_id, myId);
    const byAction = (action: string) => web.find((e: { action: string }) => e.action === action);
    assert.deepEqual(byAction('account.updated').changes.name[1], 'Audited Name');
    assert.equal(byAction('account.password_changed').changes.password, 'changed');
    assert.equal(byAction('account.recovery_codes_regenerated').changes.recovery_codes, 'changed');
    const text = JSON.stringify(log.body);
    for (const value of [PASSWORD, next, made, secret, ...codes, ...fresh])
      assert.ok(!text.includes(value), `no ${value.slice(0, 8)}… in the log`);
    assert.ok(!/\$argon|sha256/i.test(text), 'no hash either');
  });

  test('a refused filter: 422, each named, every value kept as typed; nothing read', async () => {
    const page = await me.get(`/account/workspaces/${myId}/audit?from=yesterday&actor=abc&action=link`);
    assert.equal(page.status, 422);
    assert.match(page.text, /class="error-summary"/);
    assert.match(page.text, /href="#f-from"/);
    assert.match(page.text, /href="#f-actor"/);
    assert.match(page.text, /name="from" type="date" value="yesterday"/);
    assert.match(page.text, /<option value="abc" selected>abc<\/option>/, 'the refused person kept as typed');
    // The person is chosen among the members by name and email, not typed as a number.
    assert.match(
      page.text,
      new RegExp(
        `<select[^>]*name="actor"[\\s\\S]*<option value="${myId}">[^<]*\\(${email.replace(/[.+]/g, '\\$&')}\\)</option>`,
      ),
    );
    assert.match(page.text, /name="action" type="text" value="link"/);
    assert.doesNotMatch(page.text, /<table/);
  });

  test("a viewer of a team gets 403, a stranger's workspace is a 404, the signed out are sent to sign in", async () => {
    const owner = await h().account();
    const team = await h().request('POST', '/api/v1/workspaces', { key: owner.key, json: { name: 'Team' } });
    const teamId = team.body.data.id;
    const invited = await h().request('POST', `/api/v1/workspaces/${teamId}/invitations`, {
      key: owner.key,
      json: { email, role: 'viewer' },
    });
    assert.equal(
      (await h().request('POST', `/api/v1/invitations/${invited.body.data.token}/accept`, { key })).status,
      200,
    );
    assert.equal((await me.get(`/account/workspaces/${teamId}/audit`)).status, 403);
    assert.equal((await me.get(`/account/workspaces/${teamId}/audit.csv`)).status, 403);
    assert.equal((await me.get(`/account/workspaces/${owner.id}/audit`)).status, 404);
    assert.equal((await me.get(`/account/workspaces/${owner.id}/audit.csv`)).status, 404);
    const anonymous = await fetch(`${h().baseUrl}/account/workspaces/${myId}/audit`, { redirect: 'manual' });
    assert.equal(anonymous.status, 303);
  });
});
