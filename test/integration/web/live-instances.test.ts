// Live numbers across instances (docs/design/statistics.md): a click served by instance A reaches a browser whose
// stream instance B holds, through Redis. Two servers on one PostgreSQL schema and one Redis.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { startHarness, type Harness } from '../../support/harness.ts';
import { signedUp } from '../../support/web-client.ts';
import { eventually } from '../../support/eventually.ts';
import { heardClicks, openLiveStream } from '../../support/live-stream.ts';
import { createLink, visit } from '../stats/stats-support.ts';
import { webInvite, webJoin, webPerson, webWorkspace } from './workspaces-support.ts';
import { TEST_ACTOR } from '../../support/audit-actor.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `linkpix-test:${randomUUID()}:`;

describe(
  'web: live numbers across two instances sharing PostgreSQL and Redis',
  { skip: process.env.TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set: the PostgreSQL run did not happen' },
  () => {
    let a: Harness;
    let b: Harness;

    before(async () => {
      const env = { REDIS_URL, REDIS_PREFIX: PREFIX };
      const overrides = { tuning: { STATS_FLUSH_INTERVAL_MS: 60_000 } };
      a = await startHarness('postgres', { env, overrides });
      b = await startHarness('postgres', { env, overrides, pgSchema: a.pgSchema! });
    });

    after(async () => {
      await b?.close();
      await a?.close();
    });

    test("a click on instance A reaches the account's stream on instance B within 2 s, and no one else's", async () => {
      const { client, email } = await signedUp(a.baseUrl);
      const { apiKey } = await a.server.container.accounts.createKey(email, 'test', TEST_ACTOR);
      const other = await signedUp(a.baseUrl);
      const link = await createLink(a, apiKey);
      const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      const onB = await openLiveStream(b.baseUrl, client);
      const otherOnB = await openLiveStream(b.baseUrl, other.client);
      try {
        assert.equal(onB.status, 200);
        await eventually(
          'the streams opened',
          () => onB.text().includes(': open') && otherOnB.text().includes(': open'),
        );
        // B's one subscriber connection is listening (A, with no stream, only publishes).
        await eventually(
          'B subscribed',
          async () => Number(((await redis.pubsub('NUMSUB', `${PREFIX}live-clicks`)) as [string, number])[1]) === 1,
        );
        const clicked = Date.now();
        await visit(a, link);
        await eventually('the click heard on B', () => heardClicks(onB, link.id) === 1, { timeoutMs: 2000 });
        assert.ok(Date.now() - clicked < 2000);
        await new Promise((resolve) => setTimeout(resolve, 400));
        assert.equal(heardClicks(otherOnB), 0, "another account's stream heard nothing");
      } finally {
        onB.close();
        otherOnB.close();
        redis.disconnect();
      }
    });

    test('signing out on instance A ends the stream instance B holds at once, not at its heartbeat', async () => {
      const { client } = await signedUp(a.baseUrl);
      const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      const onB = await openLiveStream(b.baseUrl, client);
      try {
        assert.equal(onB.status, 200);
        await eventually('the stream opened', () => onB.text().includes(': open'));
        await eventually(
          'B listens for session ends',
          async () =>
            Number(((await redis.pubsub('NUMSUB', `${PREFIX}live-session-ends`)) as [string, number])[1]) === 1,
        );
        assert.equal((await client.post('/logout', {}, { from: '/account' })).status, 303);
        const ended = await Promise.race([
          onB.ended.then(() => true),
          new Promise((resolve) => setTimeout(() => resolve(false), 2000)),
        ]);
        assert.equal(ended, true, 'ended within 2 s, well before the 15 s heartbeat');
      } finally {
        onB.close();
        redis.disconnect();
      }
    });

    test('removing a member on instance A ends their stream of the team workspace on instance B at once', async () => {
      const owner = await webPerson(a.baseUrl);
      const workspaceId = await webWorkspace(owner, 'Across instances');
      const member = await webPerson(a.baseUrl);
      assert.equal((await webJoin(member, await webInvite(owner, workspaceId, member.email, 'viewer'))).status, 303);
      const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      const onB = await openLiveStream(b.baseUrl, member.client);
      try {
        assert.equal(onB.status, 200);
        await eventually('the stream opened', () => onB.text().includes(': open'));
        await eventually(
          'B listens for session ends',
          async () =>
            Number(((await redis.pubsub('NUMSUB', `${PREFIX}live-session-ends`)) as [string, number])[1]) === 1,
        );
        const memberId = (await a.server.container.accounts.requireByEmail(member.email)).id;
        const page = `/account/workspaces/${workspaceId}`;
        assert.equal((await owner.client.post(`${page}/members/${memberId}/remove`, {}, { from: page })).status, 303);
        const ended = await Promise.race([
          onB.ended.then(() => true),
          new Promise((resolve) => setTimeout(() => resolve(false), 2000)),
        ]);
        assert.equal(ended, true, 'ended within 2 s, well before the 15 s heartbeat');
      } finally {
        onB.close();
        redis.disconnect();
      }
    });
  },
);
