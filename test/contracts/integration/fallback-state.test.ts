// The ClickQuota and RotationCursor contracts on the fallbacks of shared state (docs/design/outages.md)
// while Redis is up, as every instance of a deployment with Redis runs them: two instances on the
// shared Redis and one database, on both engines. The way through a Redis outage, where the
// database counts, is test/integration/state/redis-fallback.test.ts's.
import { after, before } from 'node:test';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { FallbackClickQuota } from '../../../src/adapters/state/fallback-click-quota.ts';
import { FallbackRotationCursor } from '../../../src/adapters/state/fallback-rotation-cursor.ts';
import { RedisClickQuota } from '../../../src/adapters/state/redis-click-quota.ts';
import { RedisPresence } from '../../../src/adapters/state/redis-presence.ts';
import { RedisRotationCursor } from '../../../src/adapters/state/redis-rotation-cursor.ts';
import { SqlClickClaimStore } from '../../../src/adapters/storage/stores/click-claim-store.ts';
import { SqlLinkStore } from '../../../src/adapters/storage/stores/link-store.ts';
import { SqlRotationStore } from '../../../src/adapters/storage/stores/rotation-store.ts';
import { newLinkFields, PRIVATE_STATS } from '../../../src/core/links/new-link-fields.ts';
import { eventually } from '../../support/eventually.ts';
import { describeClickQuotaContract, describeRotationCursorContract } from '../click-state-contracts.ts';
import { onEachSqlEngine } from '../sql-database.ts';
import { sqlOwners } from '../sql-owners.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

onEachSqlEngine('Fallback state with Redis up', (storage) => {
  // Keys under a prefix of this run's own, removed afterwards: the Redis is shared.
  const prefix = `linkpix-test:${randomUUID()}:`;
  let clients: Redis[] = [];
  let presences: RedisPresence[] = [];
  before(async () => {
    clients = [new Redis(REDIS_URL), new Redis(REDIS_URL)];
    presences = clients.map((c) => new RedisPresence(c));
    await eventually('both instances have Redis', () => presences.every((p) => p.up), { timeoutMs: 10_000 });
  });
  after(async () => {
    const keys = await clients[0]!.keys(`${prefix}*`);
    if (keys.length > 0) await clients[0]!.del(...keys);
    for (const c of clients) c.disconnect();
  });

  let aliases = 0;
  /** A real link: the database's counts and positions belong to one. */
  const link = async () => {
    const { db, engine } = storage();
    const accountId = await sqlOwners(db).account();
    const fields = {
      ...newLinkFields(null, null, PRIVATE_STATS),
      alias: `f${process.pid}x${Date.now().toString(36)}x${++aliases}`,
      url: 'https://example.com/',
    };
    return (await new SqlLinkStore(db, engine).insert(accountId, fields, [], 1000)).id;
  };
  const quota = (i: number) => {
    const { db, engine } = storage();
    return new FallbackClickQuota(
      new RedisClickQuota(clients[i]!, { prefix }),
      new SqlClickClaimStore(db, engine),
      presences[i]!,
      { graceMs: 0 },
    );
  };
  const rotation = (i: number) =>
    new FallbackRotationCursor(
      new RedisRotationCursor(clients[i]!, { prefix }),
      new SqlRotationStore(storage().db),
      presences[i]!,
    );

  describeClickQuotaContract('FallbackClickQuota, two instances', () => ({ a: quota(0), b: quota(1), link }));
  describeRotationCursorContract('FallbackRotationCursor, two instances', () => ({
    a: rotation(0),
    b: rotation(1),
    link,
  }));
});
