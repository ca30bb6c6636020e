// Caps, rotation and guesses of two instances when their Redis (one of this test's own) stops
// and starts again empty: the caps stay exact, the rotation keeps turning, guesses are limited in
// memory meanwhile; on both engines.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { FallbackAttemptLimiter } from '../../../src/adapters/state/fallback-attempt-limiter.ts';
import { FallbackClickQuota } from '../../../src/adapters/state/fallback-click-quota.ts';
import { FallbackRotationCursor } from '../../../src/adapters/state/fallback-rotation-cursor.ts';
import { MemoryAttemptLimiter } from '../../../src/adapters/state/memory-attempt-limiter.ts';
import { RedisAttemptLimiter } from '../../../src/adapters/state/redis-attempt-limiter.ts';
import { RedisClickQuota } from '../../../src/adapters/state/redis-click-quota.ts';
import { RedisPresence } from '../../../src/adapters/state/redis-presence.ts';
import { RedisRotationCursor } from '../../../src/adapters/state/redis-rotation-cursor.ts';
import type { Storage } from '../../../src/adapters/storage/connect.ts';
import { SqlClickClaimStore } from '../../../src/adapters/storage/stores/click-claim-store.ts';
import { SqlRotationStore } from '../../../src/adapters/storage/stores/rotation-store.ts';
import { ENGINES } from '../../support/harness.ts';
import { eventually } from '../../support/eventually.ts';
import { HAS_REDIS_SERVER, OwnRedis } from '../../support/redis-server.ts';
import { openClickDb, type ClickDb } from '../clicks/click-db.ts';

const GRACE_MS = 200;

interface Instance {
  client: Redis;
  presence: RedisPresence;
  quota: FallbackClickQuota;
  rotation: FallbackRotationCursor;
  limiter: FallbackAttemptLimiter;
}

function instance(url: string, storage: Storage, prefix: string): Instance {
  // Auto-pipelined as the server's client is (visit-runtime.ts): the fallbacks see its failures.
  const client = new Redis(url, { maxRetriesPerRequest: 2, retryStrategy: () => 50, enableAutoPipelining: true });
  client.on('error', () => {});
  const presence = new RedisPresence(client);
  return {
    client,
    presence,
    quota: new FallbackClickQuota(
      new RedisClickQuota(client, { prefix }),
      new SqlClickClaimStore(storage.db, storage.engine),
      presence,
      { graceMs: GRACE_MS },
    ),
    rotation: new FallbackRotationCursor(
      new RedisRotationCursor(client, { prefix }),
      new SqlRotationStore(storage.db),
      presence,
    ),
    limiter: new FallbackAttemptLimiter(
      new RedisAttemptLimiter(client, { name: 'login', max: 3, windowSeconds: 60 }, { prefix }),
      new MemoryAttemptLimiter({ name: 'login', max: 3, windowSeconds: 60 }),
      presence,
    ),
  };
}

for (const engine of ENGINES) {
  describe(
    `two instances through a Redis outage on ${engine.name}`,
    { skip: engine.skip ?? (HAS_REDIS_SERVER ? false : 'redis-server is not installed') },
    () => {
      let redis: OwnRedis;
      let db: ClickDb;
      let a: Instance;
      let b: Instance;

      before(async () => {
        redis = await OwnRedis.start();
        db = await openClickDb(engine.name);
        const second = engine.name === 'postgres' ? db.open() : db.storage;
        a = instance(redis.url, db.storage, 'fallback:');
        b = instance(redis.url, second, 'fallback:');
        await eventually('both connected', () => a.presence.up && b.presence.up, { timeoutMs: 10_000 });
      });
      after(async () => {
        a?.client.disconnect();
        b?.client.disconnect();
        redis?.kill();
        await db?.close();
      });

      test('a cap of 30, claims before, during and after the outage from both: exactly 30 pass; rotation and guesses keep answering', async () => {
        const [id] = await db.links(1);
        // What the click writers do for each granted claim (here at once, within the grace).
        const counted = () =>
          db.storage.db
            .updateTable('links')
            .set({ clicks: sql`clicks + 1` })
            .where('id', '=', id!)
            .execute();
        const known = async () =>
          Number(
            (await db.storage.db.selectFrom('links').select('clicks').where('id', '=', id!).executeTakeFirstOrThrow())
              .clicks,
          );
        let granted = 0;
        const visits = async (n: number) => {
          const k = await known();
          const answers = await Promise.all(
            Array.from({ length: n }, (_, i) => (i % 2 === 0 ? a : b).quota.claim(id!, 30, k)),
          );
          const passed = answers.filter(Boolean).length;
          for (let i = 0; i < passed; i++) await counted();
          granted += passed;
          return passed;
        };
        const turns = (n: number) =>
          Promise.all(Array.from({ length: n }, (_, i) => (i % 2 === 0 ? a : b).rotation.next(id!, 3, -1)));

        assert.equal(await visits(12), 12);
        assert.equal((await turns(3)).sort().join(''), '012');

        await redis.stop();
        await eventually('both lost Redis', () => !a.presence.up && !b.presence.up, { timeoutMs: 10_000 });
        assert.equal(await visits(10), 10, 'counted in the database');
        assert.equal((await turns(6)).sort().join(''), '001122', 'the rotation turns in the database');
        const guesses = await Promise.all(Array.from({ length: 5 }, () => a.limiter.consume('203.0.113.9')));
        assert.equal(guesses.filter((g) => g.allowed).length, 3, 'limited in memory');

        await redis.start();
        await eventually('both back', () => a.presence.up && b.presence.up, { timeoutMs: 10_000 });
        assert.equal(await visits(20), 8, 'Redis seeded from the database: only the rest pass');
        assert.equal(granted, 30);
        // Records cached from before the outage bring an older count: Redis kept the database's.
        assert.equal(await b.quota.claim(id!, 30, 12), false);
        assert.equal(await a.quota.claim(id!, 30, 0), false);
        assert.equal(await a.quota.exhausted(id!, 30, 0), true);
        // Around the switch an entry may come twice (both instances take the position back at once).
        await turns(3);
        assert.equal((await turns(6)).sort().join(''), '001122', 'the rotation turns in Redis again');
        assert.equal((await b.limiter.consume('203.0.113.9')).allowed, true, 'Redis counts (it came back empty)');
      });

      test('an instance still without Redis whose claim finds the count closed seeds Redis from the database, even before the closer has', async () => {
        const [id] = await db.links(1);
        const cap = 4;
        // Both have counted this link in Redis on their current connection.
        assert.deepEqual(await Promise.all([a.quota.claim(id!, cap, 0), b.quota.claim(id!, cap, 0)]), [true, true]);
        await redis.stop();
        await eventually('both lost Redis', () => !a.presence.up && !b.presence.up, { timeoutMs: 10_000 });
        const inTheDatabase = [];
        for (let i = 0; i < 3; i++) inTheDatabase.push(await a.quota.claim(id!, cap, 2));
        assert.deepEqual(inTheDatabase, [true, true, false], 'the cap is reached in the database');
        // An instance back on Redis closes the database's count; its seed has not reached Redis yet.
        await new SqlClickClaimStore(db.storage.db, db.storage.engine).close(id!, Date.now());
        // Redis restarts empty; b, not yet reconnected (its retries are up to a second apart), finds
        // the count closed and sends its claim to Redis, which ioredis holds until it reconnects.
        // A record cached long ago says 0.
        await redis.start();
        assert.equal(b.presence.up, false, 'b has not reconnected yet');
        assert.equal(await b.quota.claim(id!, cap, 0), false, 'the cap was reached in the database');
        await eventually('both back', () => a.presence.up && b.presence.up, { timeoutMs: 10_000 });
        assert.equal(await a.quota.claim(id!, cap, 0), false);
      });
    },
  );
}
