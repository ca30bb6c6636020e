// docs/design/teams.md: a signed-in person connects their provider identity from /account/security
// (the OpenID round trip against a local provider), signs in with it afterwards, and unlinks it
// while a password or another identity remains.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { WebClient, signedUp } from '../../support/web-client.ts';
import { CLIENT, TestProvider } from '../../support/oidc-provider.ts';
import { isSignedIn } from './account-support.ts';

const APP_URL = 'http://short.test';
const provider = await TestProvider.start(`${APP_URL}/login/sso/callback`);
after(() => provider.close());

const env = {
  OIDC_ISSUER: provider.issuer,
  OIDC_CLIENT_ID: CLIENT.id,
  OIDC_CLIENT_SECRET: CLIENT.secret,
  OIDC_NAME: 'Example ID',
  APP_URL,
};
const unique = () => randomBytes(4).toString('hex');

/** A person at the provider (any email: linking needs no verified one); returns their subject. */
function person(email: string, verified = false): string {
  const subject = `sub-${unique()}`;
  provider.people.set(subject, { email, email_verified: verified, name: 'Sam Provider' });
  return subject;
}

/** Starts connecting from the security page, signs in at the provider, and answers linkpix's callback. */
async function connect(client: WebClient, subject: string) {
  const start = await client.get('/account/security/sso/connect');
  assert.equal(start.status, 303, start.text.slice(0, 300));
  assert.ok(start.location?.startsWith(`${provider.issuer}/`), 'sent to the provider');
  return client.get(await provider.signIn(start.location!, subject, APP_URL));
}

/** A fresh browser signing in with the provider's person. */
async function signInWithSso(h: Harness, subject: string) {
  const client = new WebClient(h.baseUrl);
  const start = await client.get('/login/sso?next=%2Flinks');
  return { client, reply: await client.get(await provider.signIn(start.location!, subject, APP_URL)) };
}

/** The unlink form's fields for the identity, as the page renders them. */
function unlinkForm(page: string, subject: string): Record<string, string> {
  assert.match(
    page,
    new RegExp(`action="/account/security/sso/unlink"[^>]*>(?:(?!</form>)[\\s\\S])*value="${subject}"`),
    'the identity has its unlink form',
  );
  return { issuer: provider.issuer, subject };
}

onEachEngine(
  'web: linking a single sign-on identity',
  (h) => {
    test('a password account connects its identity, signs in with it, and unlinks it', async () => {
      const { client, email } = await signedUp(h().baseUrl);
      const page = await client.get('/account/security');
      assert.match(page.text, /href="\/account\/security\/sso\/connect"[^>]*>Connect Example ID</);
      assert.match(page.text, /No identity connected yet/);
      // The provider's email differs and is unverified: the person proved both sides, so it still links.
      const subject = person(`elsewhere-${unique()}@example.org`);
      const back = await connect(client, subject);
      assert.equal(back.status, 303, back.text.slice(0, 300));
      assert.equal(back.location, '/account/security');
      const linked = await client.get('/account/security');
      assert.match(linked.text, /Connected to Example ID\./);
      assert.match(linked.text, new RegExp(subject));
      assert.equal(await isSignedIn(client), true, 'still signed in');

      const { client: elsewhere, reply } = await signInWithSso(h(), subject);
      assert.equal(reply.status, 303, reply.text.slice(0, 300));
      assert.ok(
        (await elsewhere.get('/account')).text.includes(email),
        'the identity signs in as the account that linked it',
      );

      const unlinked = await client.post('/account/security/sso/unlink', unlinkForm(linked.text, subject), {
        from: '/account/security',
      });
      assert.equal(unlinked.status, 303, unlinked.text.slice(0, 300));
      assert.match((await client.get('/account/security')).text, /No identity connected yet/);
      const after = await signInWithSso(h(), subject);
      assert.equal(after.reply.status, 403, 'unlinked, with an unverified email, it matches nobody');
    });

    test("an identity another account signs in with is not taken over; nobody's callback links to another person", async () => {
      const first = await signedUp(h().baseUrl);
      const subject = person(`shared-${unique()}@example.com`);
      assert.equal((await connect(first.client, subject)).status, 303);
      const second = await signedUp(h().baseUrl);
      const refused = await connect(second.client, subject);
      assert.equal(refused.status, 403);
      assert.match(refused.text, /already signs in to another account/);
      assert.match(refused.text, /href="\/account\/security"/);
      // A connect started by one person, finished in a browser signed in as another: refused.
      const started = await second.client.get('/account/security/sso/connect');
      const callback = await provider.signIn(started.location!, person(`other-${unique()}@example.com`), APP_URL);
      const third = await signedUp(h().baseUrl);
      const pending = [...second.client.cookies].find(([k]) => k.endsWith('lpx_sso'))!;
      third.client.cookies.set(pending[0], pending[1]);
      const crossed = await third.client.get(callback);
      assert.equal(crossed.status, 400);
      assert.match(crossed.text, /started in another browser/);
      assert.doesNotMatch((await third.client.get('/account/security')).text, /Connected /);
    });

    test('the last way in is not unlinked: an account made by the provider keeps its identity', async () => {
      const subject = person(`only-${unique()}@example.com`, true);
      const { client, reply } = await signInWithSso(h(), subject);
      assert.equal(reply.status, 303, reply.text.slice(0, 300));
      const page = await client.get('/account/security');
      const refused = await client.post('/account/security/sso/unlink', unlinkForm(page.text, subject), {
        from: '/account/security',
      });
      assert.equal(refused.status, 422);
      assert.match(refused.text, /only way to sign in/);
      assert.match(refused.text, new RegExp(subject), 'still linked');
      const other = await signedUp(h().baseUrl);
      const notTheirs = await other.client.post(
        '/account/security/sso/unlink',
        { issuer: provider.issuer, subject },
        { from: '/account/security' },
      );
      assert.equal(notTheirs.status, 404, "another person's identity is not found");
    });
  },
  { env },
);
