// docs/design/statistics.md: a live stream ends at once when its session does (sign-out, the account page's
// "sign out" of other browsers or of one session, a new password, a suspension), not at its
// next heartbeat (15 s).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { PASSWORD, WebClient, signedUp } from '../../support/web-client.ts';
import { eventually } from '../../support/eventually.ts';
import { openLiveStream, type LiveStream } from '../../support/live-stream.ts';
import { webInvite, webJoin, webPerson, webWorkspace } from './workspaces-support.ts';

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
  return Promise.race([
    stream.ended.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), AT_ONCE_MS)),
  ]);
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
      const [theirsEnded, mineEnded] = await Promise.all([endsAtOnce(theirs), endsAtOnce(mine)]);
      assert.equal(theirsEnded, true);
      assert.equal(mineEnded, false, 'the session that asked keeps its stream');
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
      const reply = await client.post(
        '/account/password',
        { current_password: PASSWORD, new_password: next, new_password_confirmation: next },
        { from: '/account' },
      );
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

  test("a team workspace's stream ends at once when its member signs out", async () => {
    const owner = await webPerson(h().baseUrl);
    const workspaceId = await webWorkspace(owner, 'Live team');
    const member = await webPerson(h().baseUrl);
    assert.equal((await webJoin(member, await webInvite(owner, workspaceId, member.email, 'viewer'))).status, 303);
    const stream = await opened(h(), member.client);
    try {
      assert.equal((await member.client.post('/logout', {}, { from: '/account' })).status, 303);
      assert.equal(await endsAtOnce(stream), true);
    } finally {
      stream.close();
    }
  });

  test('removing a member ends their stream of the workspace at once, and only theirs; leaving does too', async () => {
    const owner = await webPerson(h().baseUrl);
    const workspaceId = await webWorkspace(owner, 'Live removal');
    const removed = await webPerson(h().baseUrl);
    const leaving = await webPerson(h().baseUrl);
    const kept = await webPerson(h().baseUrl);
    for (const person of [removed, leaving, kept]) {
      assert.equal((await webJoin(person, await webInvite(owner, workspaceId, person.email, 'editor'))).status, 303);
    }
    const removedStream = await opened(h(), removed.client);
    const leavingStream = await opened(h(), leaving.client);
    const keptStream = await opened(h(), kept.client);
    const ownerStream = await opened(h(), owner.client);
    const { container } = h().server;
    const page = `/account/workspaces/${workspaceId}`;
    try {
      const removedId = (await container.accounts.requireByEmail(removed.email)).id;
      const reply = await owner.client.post(`${page}/members/${removedId}/remove`, {}, { from: page });
      assert.equal(reply.status, 303, reply.text.slice(0, 300));
      assert.equal(await endsAtOnce(removedStream), true, 'the removed member hears no more of the workspace');
      const leavingId = (await container.accounts.requireByEmail(leaving.email)).id;
      const left = await leaving.client.post(`${page}/members/${leavingId}/remove`, {}, { from: page });
      assert.equal(left.status, 303, left.text.slice(0, 300));
      // The three watched over the same AT_ONCE_MS from here: the kept streams outlive both ends.
      const [leavingEnded, keptEnded, ownerEnded] = await Promise.all(
        [leavingStream, keptStream, ownerStream].map(endsAtOnce),
      );
      assert.equal(leavingEnded, true, 'a member who left hears no more of it');
      assert.equal(keptEnded, false, 'another member keeps their stream');
      assert.equal(ownerEnded, false, 'the owner keeps theirs');
    } finally {
      for (const stream of [removedStream, leavingStream, keptStream, ownerStream]) stream.close();
    }
  });
});
