// ADR 58: a live stream ends at once when its session does (sign-out, the account page's
// "sign out" of other browsers or of one session, a new password, a suspension), not at its
// next heartbeat (15 s).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { PASSWORD, WebClient, signedUp } from '../../support/web-client.ts';
import { eventually } from '../../support/eventually.ts';
import { openLiveStream, type LiveStream } from '../../support/live-stream.ts';

/** Well under the heartbeat: an end seen within it was not the heartbeat's check. */
const AT_ONCE_MS = 2000;

async function opened(h: Harness, client: WebClient): Promise<LiveStream> {
  const stream = await openLiveStream(h.baseUrl, client);
  assert.equal(stream.status, 200);
  await eventually('the stream opened', () => stream.text().includes(': open'));
  return stream;
}

/** Resolves true when the stream ends within AT_ONCE_MS. */
async function endsAtOnce(stream: LiveStream): Promise<boolean> {
  return Promise.race([stream.ended.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), AT_ONCE_MS))]);
}

/** The account signed in on a second browser. */
async function secondBrowser(h: Harness, email: string): Promise<WebClient> {
  const client = new WebClient(h.baseUrl);
  const reply = await client.post('/login', { email, password: PASSWORD }, { from: '/login' });
  assert.equal(reply.status, 303, reply.text.slice(0, 300));
  return client;
}

onEachEngine('web: a live stream ends with its session', (h) => {
  test('signing out ends this browser’s stream at once', async () => {
    const { client } = await signedUp(h().baseUrl);
    const stream = await opened(h(), client);
    try {
      assert.equal((await client.post('/logout', {}, { from: '/account' })).status, 303);
      assert.equal(await endsAtOnce(stream), true);
    } finally {
      stream.close();
    }
  });

  test('"sign out other browsers" ends theirs at once and keeps this one’s', async () => {
    const { client, email } = await signedUp(h().baseUrl);
    const other = await secondBrowser(h(), email);
    const mine = await opened(h(), client);
    const theirs = await opened(h(), other);
    try {
      assert.equal((await client.post('/account/sessions/end-others', {}, { from: '/account' })).status, 303);
      assert.equal(await endsAtOnce(theirs), true);
      assert.equal(await endsAtOnce(mine), false, 'the session that asked keeps its stream');
    } finally {
      mine.close();
      theirs.close();
    }
  });

  test('a new password ends the streams of every other session at once', async () => {
    const { client, email } = await signedUp(h().baseUrl);
    const other = await secondBrowser(h(), email);
    const theirs = await opened(h(), other);
    try {
      const next = 'a brand new passphrase';
      const reply = await client.post('/account/password', { current_password: PASSWORD, new_password: next, new_password_confirmation: next }, { from: '/account' });
      assert.equal(reply.status, 303, reply.text.slice(0, 300));
      assert.equal(await endsAtOnce(theirs), true);
    } finally {
      theirs.close();
    }
  });

  test('suspending the account ends its streams at once', async () => {
    const { client, email } = await signedUp(h().baseUrl);
    const { container } = h().server;
    const member = await container.accounts.requireByEmail(email);
    const operator = await container.accounts.getAccount((await h().account()).id);
    const stream = await opened(h(), client);
    try {
      await container.admin.suspend(operator, member.id);
      assert.equal(await endsAtOnce(stream), true);
    } finally {
      stream.close();
    }
  });
});
