/**
 * Helpers of the account screens' suites (not a test file: the runner picks *.test.ts only).
 */
import assert from 'node:assert/strict';
import { PASSWORD, WebClient } from '../../support/web-client.ts';

/** Browsers the sessions list must tell apart. */
export const FIREFOX_UBUNTU = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';
export const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/** Another browser of the same account, signed in with its password. */
export async function signedIn(
  baseUrl: string,
  email: string,
  userAgent = FIREFOX_UBUNTU,
  password = PASSWORD,
): Promise<WebClient> {
  const client = new WebClient(baseUrl);
  const reply = await client.post(
    '/login',
    { email, password },
    { from: '/login', headers: { 'user-agent': userAgent } },
  );
  assert.equal(reply.status, 303, `sign-in failed: ${reply.status} ${reply.text.slice(0, 300)}`);
  return client;
}

/** Whether the client's session still opens a page (else it is sent to sign in). */
export async function isSignedIn(client: WebClient): Promise<boolean> {
  const reply = await client.get('/account');
  if (reply.status === 200) return true;
  assert.equal(reply.status, 303);
  assert.match(reply.location ?? '', /^\/login\?next=/);
  return false;
}

/** The text of a field's error (`<p class="field-error" id="f-NAME-error">`), or null. */
export function fieldError(page: string, name: string): string | null {
  const id = `f-${name}-error`;
  const match = new RegExp(`<p class="field-error" id="${id}">([^<]*)</p>`).exec(page);
  return match ? match[1]! : null;
}

/** Creates a key on the keys page; returns the plaintext shown once. */
export async function createKeyOnPage(client: WebClient, name = 'test key'): Promise<string> {
  const reply = await client.post('/account/api-keys', { name }, { from: '/account/api-keys' });
  assert.equal(reply.status, 200, reply.text.slice(0, 300));
  const match = /id="made-key"[^>]*value="(lpx_[A-Za-z0-9_-]{43})"/.exec(reply.text);
  assert.ok(match, 'the new key is on the page');
  return match[1]!;
}
