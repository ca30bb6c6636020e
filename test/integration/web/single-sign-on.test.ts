import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { WebClient, signedUp } from '../../support/web-client.ts';
import { CLIENT, TestProvider } from '../../support/oidc-provider.ts';
import { ManualClock } from '../stats/stats-support.ts';
import { isSignedIn } from './account-support.ts';

const APP_URL = 'http://short.test';
const provider = await TestProvider.start(`${APP_URL}/login/sso/callback`);
after(() => provider.close());

const env = {
  OIDC_ISSUER: provider.issuer,
  OIDC_CLIENT_ID: CLIENT.id,
  OIDC_CLIENT_SECRET: CLIENT.secret,
  OIDC_NAME: 'Example ID',
};
const unique = () => randomBytes(4).toString('hex');

/** A person at the provider; returns their subject. */
function person(email: string, verified = true, name = 'Sam Provider'): string {
  const subject = `sub-${unique()}`;
  provider.people.set(subject, { email, email_verified: verified, name });
  return subject;
}

/** Leaves for the provider from linkpix, signs in there, and returns the callback's path and linkpix's cookie. */
async function atProvider(client: WebClient, subject: string, next = '/links'): Promise<string> {
  const start = await client.get(`/login/sso?next=${encodeURIComponent(next)}`);
  assert.equal(start.status, 303, start.text.slice(0, 300));
  assert.ok(start.location?.startsWith(`${provider.issuer}/`), 'sent to the provider');
  const asked = new URL(start.location!).searchParams;
  assert.equal(asked.get('code_challenge_method'), 'S256');
  assert.ok(asked.get('state') && asked.get('nonce') && asked.get('code_challenge'));
  return provider.signIn(start.location!, subject, APP_URL);
}

/** The whole journey in a fresh browser: linkpix's answer to the callback. */
async function signInWithSso(h: Harness, subject: string, next = '/links') {
  const client = new WebClient(h.baseUrl);
  const reply = await client.get(await atProvider(client, subject, next));
  return { client, reply };
}

/** The pending sign-in cookie, changed as an attacker would. */
function tamperPending(client: WebClient, change: Record<string, string>): void {
  const name = [...client.cookies.keys()].find((k) => k.endsWith('lpx_sso'))!;
  const value = JSON.parse(Buffer.from(client.cookies.get(name)!, 'base64url').toString('utf8')) as Record<
    string,
    string
  >;
  client.cookies.set(name, Buffer.from(JSON.stringify({ ...value, ...change })).toString('base64url'));
}

async function refused(
  client: WebClient,
  reply: { status: number; text: string },
  status: number,
  text: RegExp,
): Promise<void> {
  assert.equal(reply.status, status, reply.text.slice(0, 300));
  assert.match(reply.text, text);
  assert.equal(await isSignedIn(client), false);
}

const clock = new ManualClock(Date.now());

onEachEngine(
  'web: single sign-on (OpenID Connect), sign-up open',
  (h) => {
    test('/login and /signup offer the provider; a new person gets an account and a session', async () => {
      for (const path of ['/login', '/signup'])
        assert.match(
          (await new WebClient(h().baseUrl).get(path)).text,
          /href="\/login\/sso\?next=[^"]*">Sign in with Example ID</,
        );
      const email = `new-${unique()}@example.com`;
      const { client, reply } = await signInWithSso(h(), person(email, true, 'Nia New'));
      assert.equal(reply.status, 303, reply.text.slice(0, 300));
      assert.equal(reply.location, '/links');
      const account = await client.get('/account');
      assert.equal(account.status, 200);
      assert.ok(account.text.includes(email) && account.text.includes('Nia New'));
    });

    test("an account made here with a password is not joined to the provider's person (sign-up open: anyone could have made it)", async () => {
      const { email } = await signedUp(h().baseUrl, `ex-${unique()}@example.com`);
      const { client, reply } = await signInWithSso(h(), person(email));
      await refused(client, reply, 403, /already signs in here with a password/);
    });

    test("the provider's person keeps their account after the email changes at the provider", async () => {
      const email = `ex-${unique()}@example.com`;
      const subject = person(email);
      const first = await signInWithSso(h(), subject);
      assert.equal(first.reply.status, 303);
      assert.ok((await first.client.get('/account')).text.includes(email));

      provider.people.set(subject, {
        email: `moved-${unique()}@example.com`,
        email_verified: true,
        name: 'Sam Provider',
      });
      const again = await signInWithSso(h(), subject);
      assert.equal(again.reply.status, 303);
      assert.ok((await again.client.get('/account')).text.includes(email), 'the identity (issuer + subject) is linked');
    });

    test('an email the provider has not verified matches nobody and makes nothing', async () => {
      const email = `unverified-${unique()}@example.com`;
      await h().account(email);
      const { client, reply } = await signInWithSso(h(), person(email, false));
      await refused(client, reply, 403, /has not confirmed your email address/);
      const stranger = await signInWithSso(h(), person(`nobody-${unique()}@example.com`, false));
      await refused(stranger.client, stranger.reply, 403, /has not confirmed/);
    });

    test('an email outside OIDC_ALLOWED_DOMAINS is refused', async () => {
      const { client, reply } = await signInWithSso(h(), person(`out-${unique()}@elsewhere.test`));
      await refused(client, reply, 403, /not one of the domains allowed/);
    });

    test('a changed state, nonce or code verifier, or a callback in another browser, signs nobody in', async () => {
      const subject = person(`tamper-${unique()}@example.com`);
      const viaState = new WebClient(h().baseUrl);
      const callback = await atProvider(viaState, subject);
      const forged = callback.replace(/state=[^&]+/, 'state=forged-state');
      assert.notEqual(forged, callback);
      await refused(viaState, await viaState.get(forged), 400, /could not be checked/);

      const changes: Record<string, string>[] = [
        { nonce: 'forged-nonce' },
        { verifier: 'forged-verifier-forged-verifier-forged-verifier-1' },
      ];
      for (const change of changes) {
        const client = new WebClient(h().baseUrl);
        const path = await atProvider(client, subject);
        tamperPending(client, change);
        await refused(client, await client.get(path), 400, /could not be checked/);
      }

      const victim = new WebClient(h().baseUrl);
      const stolen = await atProvider(new WebClient(h().baseUrl), subject);
      await refused(victim, await victim.get(stolen), 400, /took too long or was started in another browser/);

      const used = new WebClient(h().baseUrl);
      const once = await atProvider(used, subject);
      assert.equal((await used.get(once)).status, 303);
      assert.equal((await used.get(once)).status, 400, 'a callback is taken once');
    });

    test('a person with two-factor still gives a code after the provider', async () => {
      clock.set(new Date(Date.now()).toISOString());
      const subject = person(`tf-${unique()}@example.com`);
      const first = await signInWithSso(h(), subject);
      assert.equal(first.reply.status, 303);
      const secret = await enrol(first.client);
      clock.set(new Date(clock.now() + 60_000).toISOString());
      const { client: browser, reply } = await signInWithSso(h(), subject, '/spaces');
      assert.equal(reply.status, 303);
      assert.equal(reply.location, '/login/two-factor?next=%2Fspaces');
      assert.equal(await isSignedIn(browser), false, 'the challenge is not a session');
      const code = TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.now() });
      const done = await browser.post('/login/two-factor', { code, next: '/spaces' }, { from: '/login/two-factor' });
      assert.equal(done.status, 303);
      assert.equal(done.location, '/spaces');
      assert.equal(await isSignedIn(browser), true);
    });
  },
  { env: { ...env, APP_URL, OIDC_ALLOWED_DOMAINS: 'example.com, Example.org' }, overrides: { clock } },
);

onEachEngine(
  'web: single sign-on (OpenID Connect), sign-up closed',
  (h) => {
    test('a person without an account is refused; an existing account signs in', async () => {
      const stranger = await signInWithSso(h(), person(`stranger-${unique()}@elsewhere.test`));
      await refused(stranger.client, stranger.reply, 403, /new accounts are made by the operator/);
      const email = `member-${unique()}@elsewhere.test`;
      await h().account(email);
      const { client, reply } = await signInWithSso(h(), person(email));
      assert.equal(reply.status, 303);
      assert.equal(await isSignedIn(client), true);
    });
  },
  { env: { ...env, APP_URL, SIGNUP: 'closed' } },
);

/** Turns two-factor on from the security page; returns the secret. */
async function enrol(client: WebClient): Promise<string> {
  assert.equal(
    (await client.post('/account/security/two-factor/start', {}, { from: '/account/security' })).status,
    303,
  );
  const page = await client.get('/account/security');
  const secret = /id="totp-secret"[^>]*value="([A-Z2-7 ]+)"/.exec(page.text)![1]!.replace(/ /g, '');
  const code = TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.now() });
  assert.equal(
    (await client.post('/account/security/two-factor/confirm', { code }, { from: '/account/security' })).status,
    200,
  );
  return secret;
}
