// Suspension and a link taken down by an operator on one instance reach the other's redirect
// cache (broadcast through Redis): two servers on one PostgreSQL schema and one Redis.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { startHarness, type Harness } from '../../support/harness.ts';
import { makeLink, redirectsTo, visit } from '../redirect/redirect-support.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `linkpix-test:${randomUUID()}:`;

/** The status `h` answers for `path` once it is `status` (the broadcast arrives shortly after the write). */
async function eventually(h: Harness, path: string, status: number): Promise<number> {
  let last = 0;
  for (let i = 0; i < 40; i++) {
    last = (await visit(h, path)).status;
    if (last === status) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  return last;
}

describe(
  'admin: two instances sharing PostgreSQL and Redis',
  { skip: process.env.TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set' },
  () => {
    let a: Harness;
    let b: Harness;

    before(async () => {
      const env = { REDIS_URL, REDIS_PREFIX: PREFIX };
      a = await startHarness('postgres', { env });
      b = await startHarness('postgres', { env, pgSchema: a.pgSchema! });
    });

    after(async () => {
      await b?.close();
      await a?.close();
      const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
      try {
        await redis.connect();
        const keys = await redis.keys(`${PREFIX}*`);
        if (keys.length > 0) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    });

    test('suspending on one instance disables the account’s links cached on the other; reinstating undoes it', async () => {
      const operator = await a.account();
      const member = await a.account();
      const link = await makeLink(a, member.key);
      const path = `/${link.alias}`;
      assert.equal(await redirectsTo(b, path), 'https://example.com/');
      const admin = a.server.container.admin;
      await admin.suspend(await a.server.container.accounts.getAccount(operator.id), member.id);
      assert.equal(await eventually(b, path, 404), 404);
      await admin.reinstate(member.id);
      assert.equal(await eventually(b, path, 302), 302);

      await admin.setLinkDisabled(link.id, true);
      assert.equal(await eventually(b, path, 404), 404);
      await admin.setLinkDisabled(link.id, false);
      assert.equal(await eventually(b, path, 302), 302);
    });
  },
);
