import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { PASSWORD, WebClient, csrfOf, signedUp } from '../../support/web-client.ts';

onEachEngine('web app: sign up, sign in, sign out', (h) => {
  test('sign-up makes the account, signs it in, and the first account is the operator', async () => {
    const { client, email } = await signedUp(h().baseUrl, 'first@example.com');
    const account = await h().server.container.accounts.getAccount(1);
    assert.equal(account.email, email);
    assert.equal(account.isAdmin, true);
    const dashboard = await client.get('/signup');
    assert.equal(dashboard.status, 303, 'a signed-in browser is sent on from /signup');
    const second = await signedUp(h().baseUrl);
    const other = await h().server.container.accounts.getAccount(2);
    assert.equal(other.isAdmin, false);
    assert.ok(second.client.cookies.has('lpx_session'));
  });

  test('a bad sign-up is a 422 that names each field, keeps what was typed and writes nothing', async () => {
    const client = new WebClient(h().baseUrl);
    const reply = await client.post(
      '/signup',
      { name: '<script>alert(1)</script>', email: 'not-an-email', password: 'short' },
      { from: '/signup' },
    );
    assert.equal(reply.status, 422);
    assert.match(reply.text, /id="f-email-error"[^>]*>The email format is invalid\./);
    assert.match(reply.text, /id="f-password-error"[^>]*>The password field must be at least 8 characters\./);
    assert.match(reply.text, /value="&lt;script&gt;alert\(1\)&lt;\/script&gt;"/, 'the name is kept, escaped');
    assert.doesNotMatch(reply.text, /<script>alert/);
    assert.doesNotMatch(reply.text, /value="short"/, 'a password is never echoed');
    const rows = await h()
      .server.container.storage.db.selectFrom('accounts')
      .select('email')
      .where('email', '=', 'not-an-email')
      .execute();
    assert.equal(rows.length, 0);
    const taken = await client.post(
      '/signup',
      { name: 'x', email: 'first@example.com', password: PASSWORD },
      { from: '/signup' },
    );
    assert.equal(taken.status, 422);
    assert.match(taken.text, /The email has already been taken\./);
  });

  test('sign-in: the same answer for an unknown email and a wrong password; a right one returns to the page asked for', async () => {
    const { email } = await signedUp(h().baseUrl);
    const client = new WebClient(h().baseUrl);
    const asked = await client.get('/links?search=x');
    assert.equal(asked.status, 303);
    assert.equal(asked.location, '/login?next=%2Flinks%3Fsearch%3Dx');
    const unknown = await client.post(
      '/login',
      { email: 'nobody@example.com', password: PASSWORD },
      { from: '/login' },
    );
    const wrong = await client.post('/login', { email, password: 'wrong password' }, { from: '/login' });
    assert.equal(unknown.status, 422);
    assert.equal(wrong.status, 422);
    const message = (text: string) => /class="field-error"[^>]*>([^<]+)</.exec(text)?.[1];
    assert.equal(message(unknown.text), 'The email or password is wrong.');
    assert.equal(message(unknown.text), message(wrong.text));
    assert.match(wrong.text, new RegExp(`value="${email.replace(/[.]/g, '\\.')}"`), 'the email is kept');
    const right = await client.post(
      '/login',
      { email: email.toUpperCase(), password: PASSWORD, next: '/links?search=x' },
      { from: '/login' },
    );
    assert.equal(right.status, 303);
    assert.equal(right.location, '/links?search=x');
  });

  test('next never leaves the site', async () => {
    const { email } = await signedUp(h().baseUrl);
    for (const next of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      const client = new WebClient(h().baseUrl);
      const right = await client.post('/login', { email, password: PASSWORD, next }, { from: '/login' });
      assert.equal(right.location, '/dashboard', next);
    }
  });

  test('cookies: HttpOnly, SameSite=Lax, a session cookie unless "keep me signed in"', async () => {
    const { email } = await signedUp(h().baseUrl);
    const client = new WebClient(h().baseUrl);
    const csrf = await client.csrf('/login');
    const short = await client.send(
      'POST',
      '/login',
      `_csrf=${csrf}&email=${encodeURIComponent(email)}&password=${encodeURIComponent(PASSWORD)}`,
      {
        'content-type': 'application/x-www-form-urlencoded',
      },
    );
    const cookie = short.headers.getSetCookie().find((c) => c.startsWith('lpx_session='))!;
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.match(cookie, /Path=\//);
    assert.doesNotMatch(cookie, /Max-Age|Expires/, 'ends with the browser');
    assert.doesNotMatch(cookie, /Secure/, 'plain http: no Secure, so the browser keeps it');
    const again = new WebClient(h().baseUrl);
    const long = await again.post('/login', { email, password: PASSWORD, remember: '1' }, { from: '/login' });
    assert.match(
      long.headers.getSetCookie().find((c) => c.startsWith('lpx_session='))!,
      /Max-Age=2592000/,
    );
  });

  test('only a digest of the session token is stored', async () => {
    const { client } = await signedUp(h().baseUrl);
    const token = client.cookies.get('lpx_session')!;
    const rows = await h().server.container.storage.db.selectFrom('sessions').select('token_hash').execute();
    assert.ok(rows.length > 0);
    assert.ok(rows.every((r) => r.token_hash !== token && !r.token_hash.includes(token)));
  });

  test('sign-out ends the session on the server, not only the cookie', async () => {
    const { client } = await signedUp(h().baseUrl);
    const token = client.cookies.get('lpx_session')!;
    const out = await client.post('/logout', {}, { from: '/dashboard' });
    assert.equal(out.status, 303);
    assert.equal(out.location, '/login');
    assert.equal(client.cookies.has('lpx_session'), false);
    const replayed = new WebClient(h().baseUrl);
    replayed.cookies.set('lpx_session', token);
    assert.equal((await replayed.get('/dashboard')).status, 303, 'the old token signs no one in');
  });

  test('CSRF: a missing, wrong or cross-site token is a 403 and nothing happens', async () => {
    const { client } = await signedUp(h().baseUrl);
    const token = client.cookies.get('lpx_session')!;
    const missing = await client.send('POST', '/logout', '', { 'content-type': 'application/x-www-form-urlencoded' });
    assert.equal(missing.status, 403);
    const wrong = await client.post('/logout', { _csrf: 'x'.repeat(43) });
    assert.equal(wrong.status, 403);
    const csrf = await client.csrf('/dashboard');
    const crossSite = await client.post('/logout', { _csrf: csrf }, { headers: { 'sec-fetch-site': 'cross-site' } });
    assert.equal(crossSite.status, 403);
    const otherOrigin = await client.post('/logout', { _csrf: csrf }, { headers: { origin: 'https://evil.example' } });
    assert.equal(otherOrigin.status, 403);
    assert.equal(client.cookies.get('lpx_session'), token);
    assert.equal((await client.get('/login')).status, 303, 'still signed in');
    // Another browser's token does not fit this session.
    const other = await signedUp(h().baseUrl);
    const foreign = await client.post('/logout', { _csrf: await other.client.csrf('/dashboard') });
    assert.equal(foreign.status, 403);
    // The header works for scripts.
    const scripted = await client.send('POST', '/logout', '', {
      'x-csrf-token': csrf,
      'content-type': 'application/x-www-form-urlencoded',
    });
    assert.equal(scripted.status, 303);
  });

  test('security headers on every app page', async () => {
    const reply = await new WebClient(h().baseUrl).get('/login');
    const csp = reply.headers.get('content-security-policy')!;
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(reply.headers.get('x-frame-options'), 'DENY');
    assert.equal(reply.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(reply.headers.get('cache-control'), 'no-store');
    assert.doesNotMatch(reply.text, /\son[a-z]+=/i, 'no inline event handlers');
    assert.doesNotMatch(reply.text, /<script(?![^>]*\bsrc=)/, 'no inline scripts');
    assert.doesNotMatch(reply.text, /\sstyle=/, 'no inline styles');
  });

  test('the theme switch works without JavaScript and sticks', async () => {
    const client = new WebClient(h().baseUrl);
    const set = await client.post('/theme', { theme: 'dark', next: '/login' }, { from: '/login' });
    assert.equal(set.status, 303);
    assert.equal(set.location, '/login');
    assert.match((await client.get('/login')).text, /<html lang="en" data-theme="dark">/);
  });

  test('the stylesheet and script are served, compressed, cacheable for a year', async () => {
    const page = await new WebClient(h().baseUrl).get('/login');
    const css = /href="(\/assets\/app\.[0-9a-f]{12}\.css)"/.exec(page.text)![1]!;
    const js = /src="(\/assets\/app\.[0-9a-f]{12}\.js)"/.exec(page.text)![1]!;
    for (const path of [css, js]) {
      const res = await fetch(h().baseUrl + path, { headers: { 'accept-encoding': 'br' } });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('cache-control')!, /immutable/);
      assert.ok((await res.arrayBuffer()).byteLength > 0);
    }
  });
});

onEachEngine('web app: sign-in limits', (h) => {
  test('guesses of one account are limited, with the same answer whether or not the password is right', async () => {
    const { email } = await signedUp(h().baseUrl);
    const client = new WebClient(h().baseUrl);
    const csrf = await client.csrf('/login');
    let last = 0;
    for (let i = 0; i < 11; i++)
      last = (await client.post('/login', { _csrf: csrf, email, password: `wrong ${i}` })).status;
    assert.equal(last, 429);
    const right = await client.post('/login', { _csrf: csrf, email, password: PASSWORD });
    assert.equal(right.status, 429, 'the right password waits too: the limit is not an oracle');
    assert.ok(Number(right.headers.get('retry-after')) > 0);
  });
});

// Both on each engine: the refused sign-up writes no account row, the accepted one writes a session.
onEachEngine(
  'web app: SIGNUP=closed',
  (h) => {
    test('/signup says so and makes no account', async () => {
      const client = new WebClient(h().baseUrl);
      const page = await client.get('/signup');
      assert.equal(page.status, 200);
      assert.match(page.text, /made by the operator/);
      // A token that fits this browser (from the sign-in form): the refusal is the closed sign-up's.
      const reply = await client.post(
        '/signup',
        { name: 'x', email: 'x@example.com', password: PASSWORD },
        { from: '/login' },
      );
      assert.equal(reply.status, 403);
      await assert.rejects(h().server.container.accounts.getAccount(1));
    });
  },
  { env: { SIGNUP: 'closed' } },
);

onEachEngine(
  'web app over HTTPS (behind a trusted proxy)',
  (h) => {
    test('the session cookie is __Host- and Secure', async () => {
      const client = new WebClient(h().baseUrl);
      const headers = { 'x-forwarded-proto': 'https' };
      const page = await client.get('/signup', headers);
      const reply = await client.post(
        '/signup',
        { _csrf: csrfOf(page.text), name: 'x', email: 'tls@example.com', password: PASSWORD },
        { headers },
      );
      assert.equal(reply.status, 303);
      const cookie = reply.headers.getSetCookie().find((c) => c.startsWith('__Host-lpx_session='));
      assert.ok(cookie, reply.headers.getSetCookie().join('\n'));
      assert.match(cookie, /Secure/);
      assert.match(cookie, /Path=\//);
      assert.doesNotMatch(cookie, /Domain=/);
    });
  },
  { env: { TRUST_PROXY: 'true' } },
);
