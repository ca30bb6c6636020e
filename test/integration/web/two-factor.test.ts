import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { onEachEngine } from '../../support/harness.ts';
import { PASSWORD, WebClient, signedUp } from '../../support/web-client.ts';
import { ManualClock } from '../stats/stats-support.ts';
import { fieldError, isSignedIn } from './account-support.ts';

const clock = new ManualClock(Date.parse('2026-03-10T12:00:00Z'));

/** The code an authenticator app shows at the clock's time. */
const codeAt = (secret: string, iso?: string) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: iso ? Date.parse(iso) : clock.now() });

/** Sets up two-factor on the page: the secret (typed, not scanned) and the recovery codes shown once. */
async function enrol(client: WebClient): Promise<{ secret: string; codes: string[] }> {
  const started = await client.post('/account/security/two-factor/start', {}, { from: '/account/security' });
  assert.equal(started.status, 303);
  const page = await client.get('/account/security');
  assert.match(
    page.text,
    /<img class="enrol-qr" src="data:image\/svg\+xml;base64,/,
    'the QR code of the otpauth:// URI',
  );
  // One primary button in the set-up: confirming; cancelling is the secondary one.
  assert.match(page.text, /<button type="submit" class="secondary">Cancel the set-up<\/button>/);
  const secret = /id="totp-secret"[^>]*value="([A-Z2-7 ]+)"/.exec(page.text)![1]!.replace(/ /g, '');
  const wrong = await client.post(
    '/account/security/two-factor/confirm',
    { code: '000000' === codeAt(secret) ? '111111' : '000000' },
    { from: '/account/security' },
  );
  assert.equal(wrong.status, 422);
  assert.ok(fieldError(wrong.text, 'code'));
  const confirmed = await client.post(
    '/account/security/two-factor/confirm',
    { code: codeAt(secret) },
    { from: '/account/security' },
  );
  assert.equal(confirmed.status, 200, 'the codes are the answer itself, never a redirect through a cookie');
  const codes = [...confirmed.text.matchAll(/<li>([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})<\/li>/g)].map(
    (m) => m[1]!,
  );
  assert.equal(codes.length, 10);
  return { secret, codes };
}

/** The password step: a 303 to the code's page, with the half-signed-in cookie only. */
async function passwordStep(baseUrl: string, email: string, next = '/links'): Promise<WebClient> {
  const client = new WebClient(baseUrl);
  const reply = await client.post('/login', { email, password: PASSWORD, next }, { from: '/login' });
  assert.equal(reply.status, 303);
  assert.equal(reply.location, `/login/two-factor?next=${encodeURIComponent(next)}`);
  return client;
}

onEachEngine(
  'web: two-factor sign-in',
  (h) => {
    test('enrol, then sign-in asks for a code after the password; the half-signed-in state opens nothing else', async () => {
      clock.set('2026-03-10T12:00:00Z');
      const { client, email } = await signedUp(h().baseUrl);
      const { secret } = await enrol(client);
      assert.match((await client.get('/account/security')).text, /Two-factor sign-in is on since/);

      const half = await passwordStep(h().baseUrl, email);
      assert.equal(await isSignedIn(half), false, 'the challenge is not a session');
      assert.equal((await half.get('/dashboard')).status, 303);
      const codePage = await half.get('/login/two-factor?next=%2Flinks');
      assert.equal(codePage.status, 200);
      assert.match(codePage.text, /autocomplete="one-time-code"/);

      clock.set('2026-03-10T12:01:00Z');
      const bad = await half.post(
        '/login/two-factor',
        { code: '12345', next: '/links' },
        { from: '/login/two-factor' },
      );
      assert.equal(bad.status, 422);
      assert.ok(fieldError(bad.text, 'code'));
      const ok = await half.post(
        '/login/two-factor',
        { code: codeAt(secret), next: '/links' },
        { from: '/login/two-factor' },
      );
      assert.equal(ok.status, 303);
      assert.equal(ok.location, '/links');
      assert.equal(await isSignedIn(half), true);
      assert.equal((await half.get('/login/two-factor')).status, 303, 'the challenge is spent');

      const replay = await passwordStep(h().baseUrl, email);
      const again = await replay.post(
        '/login/two-factor',
        { code: codeAt(secret), next: '/links' },
        { from: '/login/two-factor' },
      );
      assert.equal(again.status, 422, 'a code is accepted once');
      clock.set('2026-03-10T12:01:30Z');
      assert.equal(
        (
          await replay.post(
            '/login/two-factor',
            { code: codeAt(secret), next: '/links' },
            { from: '/login/two-factor' },
          )
        ).status,
        303,
        "the next step's code works",
      );
    });

    test('a recovery code signs in once; turning it off needs the password and a code', async () => {
      clock.set('2026-03-10T13:00:00Z');
      const { client, email } = await signedUp(h().baseUrl);
      const { secret, codes } = await enrol(client);
      const first = await passwordStep(h().baseUrl, email);
      assert.equal(
        (
          await first.post(
            '/login/two-factor',
            { code: codes[0]!.toLowerCase(), next: '/links' },
            { from: '/login/two-factor' },
          )
        ).status,
        303,
      );
      const second = await passwordStep(h().baseUrl, email);
      assert.equal(
        (await second.post('/login/two-factor', { code: codes[0]!, next: '/links' }, { from: '/login/two-factor' }))
          .status,
        422,
        'used once',
      );
      assert.match((await client.get('/account/security')).text, /9 recovery codes are left/);

      clock.set('2026-03-10T13:00:30Z');
      const noPassword = await client.post(
        '/account/security/two-factor/disable',
        { password: 'wrong password', code: codeAt(secret) },
        { from: '/account/security' },
      );
      assert.equal(noPassword.status, 422);
      assert.ok(fieldError(noPassword.text, 'password'));
      const noCode = await client.post(
        '/account/security/two-factor/disable',
        { password: PASSWORD, code: '000000' === codeAt(secret) ? '111111' : '000000' },
        { from: '/account/security' },
      );
      assert.equal(noCode.status, 422);
      assert.ok(fieldError(noCode.text, 'code'));
      const off = await client.post(
        '/account/security/two-factor/disable',
        { password: PASSWORD, code: codes[1]! },
        { from: '/account/security' },
      );
      assert.equal(off.status, 303);
      const plain = new WebClient(h().baseUrl);
      const signIn = await plain.post('/login', { email, password: PASSWORD }, { from: '/login' });
      assert.equal(signIn.location, '/dashboard', 'no code asked once it is off');
    });

    test('codes are rate-limited per person (429 with Retry-After), even when right', async () => {
      clock.set('2026-03-10T14:00:00Z');
      const { client, email } = await signedUp(h().baseUrl);
      const { secret } = await enrol(client);
      const half = await passwordStep(h().baseUrl, email);
      const wrong = codeAt(secret) === '000000' ? '111111' : '000000';
      for (let i = 0; i < 10; i++)
        assert.equal(
          (await half.post('/login/two-factor', { code: wrong, next: '/links' }, { from: '/login/two-factor' })).status,
          422,
        );
      const limited = await half.post(
        '/login/two-factor',
        { code: codeAt(secret), next: '/links' },
        { from: '/login/two-factor' },
      );
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
      assert.equal(await isSignedIn(half), false);
    });

    test("the security page is the person's own, lists the sessions, and checks CSRF", async () => {
      clock.set('2026-03-10T15:00:00Z');
      const { client } = await signedUp(h().baseUrl);
      const page = await client.get('/account/security');
      assert.equal(page.status, 200);
      assert.match(page.text, /Where you are signed in/);
      assert.match(page.text, /Set up two-factor sign-in/);
      const forged = await client.post('/account/security/two-factor/start', { _csrf: 'forged' });
      assert.equal(forged.status, 403);
      assert.equal((await new WebClient(h().baseUrl).get('/account/security')).status, 303, 'signed out: to sign in');
    });
  },
  { overrides: { clock } },
);
