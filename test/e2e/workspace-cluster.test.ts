/**
 * Two instances of the compiled server on PostgreSQL and a redis-server of their own (issue 33):
 * a member removed, or a role lowered, on one instance counts on the other within a second:
 * nothing caches a member's standing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hasNginx, NGINX, startCluster, type Cluster } from '../support/cluster.ts';
import { cliAccountKey, isolatedPgUrl } from '../support/processes.ts';
import { OwnRedis } from '../support/redis-server.ts';
import { POSTGRES_SKIP } from '../support/harness.ts';
import { testDatabaseUrl } from '../support/test-database-url.ts';

const WITHIN_MS = 1000;

interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function call(base: string, key: string, method: string, path: string, json?: unknown): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      accept: 'application/json',
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Milliseconds until `path` answers `status` on `base` (polled); fails past the deadline. */
async function msUntil(
  base: string,
  key: string,
  method: string,
  path: string,
  status: number,
  json?: unknown,
): Promise<number> {
  const start = Date.now();
  for (;;) {
    const answer = await call(base, key, method, path, json);
    if (answer.status === status) return Date.now() - start;
    if (Date.now() - start > 5 * WITHIN_MS)
      assert.fail(`${method} ${path} still answers ${answer.status}, not ${status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe(
  'two instances on PostgreSQL and Redis: a member’s standing counts everywhere at once',
  { skip: POSTGRES_SKIP ?? false },
  () => {
    let schema: { url: string; drop(): Promise<void> };
    let redis: OwnRedis;
    let cluster: Cluster;
    let owner: string;
    let team: number;
    const [one, two] = [() => cluster.instances[0]!.base, () => cluster.instances[1]!.base];

    /** A person made by the CLI, a member of the team with the role, and their key in the team. */
    const member = async (email: string, role: string): Promise<{ id: number; teamKey: string }> => {
      const personal = await cliAccountKey({ DATABASE_URL: schema.url }, email);
      const invited = await call(one(), owner, 'POST', `/api/v1/workspaces/${team}/invitations`, { email, role });
      assert.equal(invited.status, 201, JSON.stringify(invited.body));
      assert.equal(
        (await call(one(), personal, 'POST', `/api/v1/invitations/${invited.body.data.token}/accept`)).status,
        200,
      );
      const key = await call(one(), personal, 'POST', `/api/v1/workspaces/${team}/api-keys`, { name: 'team' });
      assert.equal(key.status, 201, JSON.stringify(key.body));
      const id = (await call(one(), personal, 'GET', '/api/v1/account')).body.data.id as number;
      return { id, teamKey: key.body.data.key };
    };

    before(async () => {
      assert.ok(hasNginx(), `nginx is not installed at ${NGINX}: apt-get install -y nginx`);
      schema = await isolatedPgUrl(testDatabaseUrl());
      redis = await OwnRedis.start();
      cluster = await startCluster({
        instances: 2,
        databaseUrl: schema.url,
        redisUrl: redis.url,
        env: { TITLE_FETCH: 'false', API_RATE_LIMIT: '0' },
      });
      owner = await cliAccountKey({ DATABASE_URL: schema.url }, 'owner@example.com');
      const made = await call(one(), owner, 'POST', '/api/v1/workspaces', { name: 'Team' });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      team = made.body.data.id;
    });

    after(async () => {
      cluster?.kill();
      redis?.kill();
      await schema?.drop();
    });

    test('a member removed on one instance: their key answers 403 on the other within 1 s', async () => {
      const removed = await member('removed@example.com', 'editor');
      assert.equal(
        (await call(two(), removed.teamKey, 'GET', '/api/v1/links')).status,
        200,
        'the other instance has served the key',
      );
      const gone = await call(one(), owner, 'DELETE', `/api/v1/workspaces/${team}/members/${removed.id}`);
      assert.equal(gone.status, 200, JSON.stringify(gone.body));
      const ms = await msUntil(two(), removed.teamKey, 'GET', '/api/v1/links', 403);
      assert.ok(ms < WITHIN_MS, `403 after ${ms} ms`);
    });

    test('a role lowered on one instance: the key can no longer write on the other within 1 s', async () => {
      const lowered = await member('lowered@example.com', 'editor');
      const link = { url: 'https://example.com/cluster' };
      assert.equal((await call(two(), lowered.teamKey, 'POST', '/api/v1/links', link)).status, 201, 'an editor writes');
      const demoted = await call(one(), owner, 'PUT', `/api/v1/workspaces/${team}/members/${lowered.id}`, {
        role: 'viewer',
      });
      assert.equal(demoted.status, 200, JSON.stringify(demoted.body));
      const ms = await msUntil(two(), lowered.teamKey, 'POST', '/api/v1/links', 403, link);
      assert.ok(ms < WITHIN_MS, `403 after ${ms} ms`);
      assert.equal((await call(two(), lowered.teamKey, 'GET', '/api/v1/links')).status, 200, 'a viewer still reads');
    });
  },
);
