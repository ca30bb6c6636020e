import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FallbackClickQuota } from './fallback-click-quota.ts';
import { MemoryClickClaimStore } from '../../../test/support/fakes/claim-fakes.ts';

/** Redis's claim script, in memory; `during` runs while a claim is on its way. */
class FakeRedisQuota {
  stored = new Map<number, number>();
  during: (() => void) | null = null;

  async claimCount(linkId: number, cap: number, known: number): Promise<number> {
    await Promise.resolve();
    this.during?.();
    this.during = null;
    const stored = this.stored.get(linkId) ?? 0;
    const count = Math.max(stored, known);
    if (count >= cap) {
      if (count > stored) this.stored.set(linkId, count);
      return 0;
    }
    this.stored.set(linkId, count + 1);
    return count + 1;
  }

  async exhausted(linkId: number, cap: number, known: number): Promise<boolean> {
    return !(Math.max(this.stored.get(linkId) ?? 0, known) < cap);
  }

  async forget(linkId: number): Promise<void> {
    this.stored.delete(linkId);
  }
}

/** An instance with Redis up, over a database whose link has `clicksOf` clicks written. */
function withRedisUp(clicksOf: () => number = () => 0, graceMs = 0) {
  const redis = new FakeRedisQuota();
  const state = { up: true, generation: 1, losses: 1, lostAt: null as number | null, lastLossAt: null as number | null, lost() {} };
  const claims = new MemoryClickClaimStore(clicksOf);
  const quota = new FallbackClickQuota(redis, claims, state, { graceMs });
  /** Redis restarted empty and the client reconnected. */
  const restartRedis = () => {
    state.generation++;
    redis.stored.clear();
  };
  return { redis, state, claims, quota, restartRedis };
}

/** One claim through Redis before the outage: this instance has the link synced on its connection. */
async function synced(count: number) {
  const { redis, state, claims, quota, restartRedis } = withRedisUp();
  assert.equal(await quota.claim(7, 20, 7), true);
  // Meanwhile Redis went away, the database counted (other instances too), Redis came back empty.
  claims.counts.set(7, { claimed: count, open: true, closedAt: null });
  return { redis, state, claims, quota, restartRedis };
}

describe('FallbackClickQuota', () => {
  test('a claim resent across a reconnection onto an emptied Redis does not grant past what the database counted', async () => {
    // While Redis was away the database counted the link to its cap of 20.
    const { redis, quota, restartRedis } = await synced(20);
    // The claim was sent with the floor this instance knew before the outage, and runs after
    // Redis restarted empty and the client reconnected.
    redis.during = restartRedis;
    assert.equal(await quota.claim(7, 20, 8), false);
    assert.equal(redis.stored.get(7), 20);
    assert.equal(await quota.claim(7, 20, 8), false);
  });

  test('a claim resent across a reconnection, under the cap the database counted, is granted once from that count', async () => {
    const { redis, quota, restartRedis } = await synced(15);
    redis.during = restartRedis;
    assert.equal(await quota.claim(7, 20, 8), true);
    assert.equal(redis.stored.get(7), 16);
  });

  test('a claim that reached a Redis already seeded past the database count is granted as it is', async () => {
    const { redis, state, quota } = await synced(15);
    redis.stored.set(7, 17);
    redis.during = () => void state.generation++;
    assert.equal(await quota.claim(7, 20, 8), true);
    assert.equal(redis.stored.get(7), 18);
  });

  test('Redis counted the cap out alone, then restarted empty: the first claim after starts from the link’s clicks, not the cached record', async () => {
    let written = 0;
    const { redis, quota, restartRedis } = withRedisUp(() => written);
    redis.stored.set(7, 4);
    assert.equal(await quota.claim(7, 20, 0), true);
    // The other instances' claims took it to the cap; no claim came while Redis was away, so the
    // database never opened a count of its own.
    redis.stored.set(7, 20);
    written = 20;
    restartRedis();
    assert.equal(await quota.claim(7, 20, 0), false, 'the record cached before any click says 0');
    assert.equal(redis.stored.get(7), 20);
  });

  test('Redis restarted empty before this instance’s last clicks were written: its claims start from what it last saw granted', async () => {
    const { redis, quota, restartRedis } = withRedisUp(() => 17);
    redis.stored.set(7, 19);
    assert.equal(await quota.claim(7, 20, 0), true);
    restartRedis();
    assert.equal(await quota.claim(7, 20, 0), false);
    assert.equal(redis.stored.get(7), 20);
  });

  test('a count taken back soon after a loss waits for the grace: the clicks granted before it are written by then', async () => {
    let written = 17;
    const { redis, state, quota, restartRedis } = withRedisUp(() => written, 100);
    // Other instances took Redis to the cap; it restarted empty at once, three clicks still buffered.
    restartRedis();
    state.lastLossAt = Date.now();
    setTimeout(() => (written = 20), 20);
    assert.equal(await quota.claim(7, 20, 0), false);
    assert.equal(redis.stored.get(7), 20);
  });
});

describe('FallbackClickQuota, two instances around a short outage', () => {
  test('one back on Redis takes a link back before any count was opened: the other, still without Redis, does not open one beside it', async () => {
    const redis = new FakeRedisQuota();
    const claims = new MemoryClickClaimStore(() => 30);
    const lostAt = Date.now() - 10;
    // Both lost Redis at once; A has reconnected, B not yet (its claims wait in ioredis's queue).
    const back = { up: true, generation: 2, losses: 2, lostAt: null as number | null, lastLossAt: lostAt as number | null, lost() {} };
    const away = { up: false, generation: 1, losses: 2, lostAt: lostAt as number | null, lastLossAt: lostAt as number | null, lost() {} };
    const a = new FallbackClickQuota(redis, claims, back, { graceMs: 0 });
    const b = new FallbackClickQuota(redis, claims, away, { graceMs: 0 });
    assert.equal(await a.claim(7, 40, 0), true, 'A seeds Redis from the 30 clicks written and counts there');
    const granted: boolean[] = [];
    for (let i = 0; i < 10; i++) granted.push(await b.claim(7, 40, 0), await a.claim(7, 40, 0));
    assert.equal(granted.filter(Boolean).length, 9, 'the cap’s 10 in all, wherever they were counted');
    assert.equal(redis.stored.get(7), 40);
    assert.equal(await claims.claim(7, 40), 'closed');
  });
});
