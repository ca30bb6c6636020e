import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { PASSWORD, WebClient, signedUp } from '../../support/web-client.ts';
import { FIREFOX_UBUNTU, SAFARI_IPHONE, createKeyOnPage, fieldError, isSignedIn, signedIn } from './account-support.ts';

onEachEngine('web: the account page', (h) => {
  test('anonymous visitors are sent to sign in, and their posts change nothing', async () => {
    const client = new WebClient(h().baseUrl);
    for (const path of ['/account', '/account/api-keys', '/account/delete']) {
      const reply = await client.get(path);
      assert.equal(reply.status, 303, path);
      assert.equal(reply.location, `/login?next=${encodeURIComponent(path)}`);
    }
    const csrf = await client.csrf('/login');
    const post = await client.post('/account/profile', {
      _csrf: csrf,
      name: 'x',
      email: 'x@example.com',
      timezone: 'UTC',
    });
    assert.equal(post.status, 303);
    assert.match(post.location ?? '', /^\/login\?next=/);
  });

  test('the profile is saved, seen on the page and through the API', async () => {
    const { client } = await signedUp(h().baseUrl);
    const key = await createKeyOnPage(client);
    const email = `moved-${Date.now()}@example.com`;
    const reply = await client.post(
      '/account/profile',
      { name: 'Ada Lovelace', email: email.toUpperCase(), timezone: 'Europe/Paris' },
      { from: '/account' },
    );
    assert.equal(reply.status, 303, reply.text.slice(0, 300));
    assert.equal(reply.location, '/account');
    const page = await client.get('/account');
    assert.match(page.text, /Your profile is saved\./);
    assert.match(page.text, /value="Ada Lovelace"/);
    assert.match(page.text, /<option value="Europe\/Paris" selected>/);
    const api = await h().request('GET', '/api/v1/account', { key });
    assert.equal(api.status, 200);
    assert.equal(api.body.data.name, 'Ada Lovelace');
    assert.equal(api.body.data.email, email);
    assert.equal(api.body.data.timezone, 'Europe/Paris');
  });

  test('a bad profile is refused field by field, keeping what was typed, writing nothing', async () => {
    const other = await signedUp(h().baseUrl);
    const { client, email } = await signedUp(h().baseUrl);
    const key = await createKeyOnPage(client);

    const bad = await client.post(
      '/account/profile',
      { name: 'Typed name', email: 'not-an-email', timezone: 'Mars/Olympus' },
      { from: '/account' },
    );
    assert.equal(bad.status, 422);
    assert.match(fieldError(bad.text, 'email') ?? '', /email format is invalid/);
    assert.match(fieldError(bad.text, 'timezone') ?? '', /timezone is invalid/);
    assert.match(bad.text, /class="error-summary"/);
    assert.match(bad.text, /value="Typed name"/);
    assert.match(bad.text, /value="not-an-email"/);

    const taken = await client.post(
      '/account/profile',
      { name: 'Someone', email: other.email, timezone: 'UTC' },
      { from: '/account' },
    );
    assert.equal(taken.status, 422);
    assert.match(fieldError(taken.text, 'email') ?? '', /already been taken/);

    const api = await h().request('GET', '/api/v1/account', { key });
    assert.equal(api.body.data.email, email);
    assert.equal(api.body.data.name, 'Web User');
  });

  test('keeping its own email is no clash', async () => {
    const { client, email } = await signedUp(h().baseUrl);
    const reply = await client.post('/account/profile', { name: 'Same', email, timezone: 'UTC' }, { from: '/account' });
    assert.equal(reply.status, 303);
  });

  test('a stored <script> comes out escaped', async () => {
    const { client } = await signedUp(h().baseUrl);
    const name = '<script>alert(1)</script>';
    assert.equal(
      (
        await client.post(
          '/account/profile',
          { name, email: `x-${Date.now()}@example.com`, timezone: 'UTC' },
          { from: '/account' },
        )
      ).status,
      303,
    );
    const page = await client.get('/account');
    assert.ok(!page.text.includes(name));
    assert.ok(page.text.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  });

  test('a post without the CSRF token, or with a wrong one, is refused and writes nothing', async () => {
    const { client, email } = await signedUp(h().baseUrl);
    const key = await createKeyOnPage(client);
    for (const csrf of [undefined, 'wrong']) {
      const form: Record<string, string> = {
        name: 'Forged',
        email: 'forged@example.com',
        timezone: 'UTC',
        ...(csrf ? { _csrf: csrf } : {}),
      };
      const body = new URLSearchParams(form).toString();
      const reply = await client.send('POST', '/account/profile', body, {
        'content-type': 'application/x-www-form-urlencoded',
      });
      assert.equal(reply.status, 403);
    }
    for (const path of [
      '/account/password',
      '/account/notifications',
      '/account/sessions/end-others',
      '/account/delete',
      '/account/api-keys',
    ]) {
      const reply = await client.send('POST', path, '_csrf=wrong&new_password=x&password=x', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      assert.equal(reply.status, 403, path);
    }
    const api = await h().request('GET', '/api/v1/account', { key });
    assert.equal(api.body.data.email, email);
    assert.equal(api.body.data.name, 'Web User');
    assert.equal((await h().request('GET', '/api/v1/account', { key })).status, 200, 'the account is still there');
  });

  test('a wrong current password or a mismatched confirmation changes nothing', async () => {
    const { client, email } = await signedUp(h().baseUrl);
    const other = await signedIn(h().baseUrl, email);
    const mismatch = await client.post(
      '/account/password',
      { current_password: PASSWORD, new_password: 'a new password', new_password_confirmation: 'another one' },
      { from: '/account' },
    );
    assert.equal(mismatch.status, 422);
    assert.match(fieldError(mismatch.text, 'new_password_confirmation') ?? '', /do not match/);

    const wrong = await client.post(
      '/account/password',
      {
        current_password: 'not the password',
        new_password: 'a new password',
        new_password_confirmation: 'a new password',
      },
      { from: '/account' },
    );
    assert.equal(wrong.status, 422);
    assert.match(fieldError(wrong.text, 'current_password') ?? '', /current password is wrong/);

    const short = await client.post(
      '/account/password',
      { current_password: PASSWORD, new_password: 'short', new_password_confirmation: 'short' },
      { from: '/account' },
    );
    assert.equal(short.status, 422);
    assert.match(fieldError(short.text, 'new_password') ?? '', /at least 8 characters/);

    assert.ok(await isSignedIn(other), 'no session ended');
    await signedIn(h().baseUrl, email); // the old password still works
  });

  test('changing the password ends every other session and keeps this one', async () => {
    const { client, email } = await signedUp(h().baseUrl);
    const other = await signedIn(h().baseUrl, email);
    const next = 'a brand new password';
    const reply = await client.post(
      '/account/password',
      { current_password: PASSWORD, new_password: next, new_password_confirmation: next },
      { from: '/account' },
    );
    assert.equal(reply.status, 303, reply.text.slice(0, 300));
    assert.equal(reply.location, '/account');
    assert.match(reply.headers.getSetCookie().join('\n'), /lpx_session=[A-Za-z0-9_-]{43}; .*HttpOnly/);
    assert.ok(await isSignedIn(client), 'this browser stays signed in (with its new session)');
    assert.equal(await isSignedIn(other), false, 'the other browser is signed out');
    const old = await new WebClient(h().baseUrl).post('/login', { email, password: PASSWORD }, { from: '/login' });
    assert.equal(old.status, 422, 'the old password no longer signs in');
    await signedIn(h().baseUrl, email, FIREFOX_UBUNTU, next);
  });

  test('the sessions list: browser and system, address, the current one marked; one ended', async () => {
    const { client, email } = await signedUp(h().baseUrl);
    const firefox = await signedIn(h().baseUrl, email, FIREFOX_UBUNTU);
    const page = await client.get('/account');
    assert.equal(page.status, 200);
    assert.match(page.text, /Firefox on Ubuntu/);
    assert.match(page.text, /127\.0\.0\.1/);
    assert.match(page.text, /<tr aria-current="true">[\s\S]*?This browser/);
    const ids = [...page.text.matchAll(/action="\/account\/sessions\/(\d+)\/end"/g)].map((m) => Number(m[1]));
    assert.equal(ids.length, 1, 'one other session, with its button');
    const ended = await client.post(`/account/sessions/${ids[0]}/end`, {}, { from: '/account' });
    assert.equal(ended.status, 303);
    assert.equal(await isSignedIn(firefox), false);
    assert.ok(await isSignedIn(client));
  });

  test("another account's session id, or no id at all, is not found", async () => {
    const mine = await signedUp(h().baseUrl);
    const theirs = await signedUp(h().baseUrl);
    const theirOther = await signedIn(h().baseUrl, theirs.email);
    const page = await theirs.client.get('/account');
    const id = /action="\/account\/sessions\/(\d+)\/end"/.exec(page.text)![1];
    const foreign = await mine.client.post(`/account/sessions/${id}/end`, {}, { from: '/account' });
    assert.equal(foreign.status, 404);
    assert.ok(await isSignedIn(theirOther), 'their session stands');
    for (const bad of ['abc', '0', '99999999999']) {
      assert.equal((await mine.client.post(`/account/sessions/${bad}/end`, {}, { from: '/account' })).status, 404, bad);
    }
  });

  test('"sign out everywhere else" ends the others and keeps this browser', async () => {
    const { client, email } = await signedUp(h().baseUrl);
    const a = await signedIn(h().baseUrl, email, FIREFOX_UBUNTU);
    const b = await signedIn(h().baseUrl, email, SAFARI_IPHONE);
    assert.match((await client.get('/account')).text, /Mobile Safari on iOS/);
    const reply = await client.post('/account/sessions/end-others', {}, { from: '/account' });
    assert.equal(reply.status, 303);
    assert.equal(await isSignedIn(a), false);
    assert.equal(await isSignedIn(b), false);
    const page = await client.get('/account');
    assert.equal(page.status, 200);
    assert.match(page.text, /Every other session has ended\./);
    assert.match(page.text, /This browser is the only one signed in to your account\./);
  });

  test("ending this browser's own session signs it out", async () => {
    const { client } = await signedUp(h().baseUrl);
    const page = await client.get('/account');
    assert.doesNotMatch(page.text, /action="\/account\/sessions\/\d+\/end"/, 'no button for the current session');
    const key = await createKeyOnPage(client);
    const accountId = (await h().request('GET', '/api/v1/account', { key })).body.data.id;
    const [session] = await h().server.container.signIn.list(accountId);
    const reply = await client.post(`/account/sessions/${session!.id}/end`, {}, { from: '/account' });
    assert.equal(reply.status, 303);
    assert.equal(reply.location, '/login');
    assert.equal(await isSignedIn(client), false);
  });
});
