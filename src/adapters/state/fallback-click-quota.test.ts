import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FallbackClickQuota } from './fallback-click-quota.ts';
import { UnseedableError, type Unseeded } from './redis-click-quota.ts';
import { MemoryClickClaimStore } from '../../../test/support/fakes/claim-fakes.ts';
import { UnavailableError } from '../../core/shared/errors.ts';

/**
 * Redis's claim script, in memory (redis-click-quota.ts; the script itself in
 * test/integration/state/redis-state.test.ts): a count holds beside the run it was seeded on.
 * `during` runs while a claim is on its way; `calls` lists each claim's seed run.
 */
class FakeRedisQuota {
  stored = new Map<number, number>();
  seededOn = new Map<number, string>();
  run = 'run-1';
  /** How long this Redis has been up, as INFO says (whole seconds). */
  upSeconds = 3600;
  during: (() => void) | null = null;
  calls: string[] = [];

  async claimCount(linkId: number, cap: number, floor: number, seedRun = ''): Promise<number | Unseeded> {
    this.calls.push(seedRun);
    await Promise.resolve();
    const during = this.during;
    this.during = null;
    during?.();
    let stored = this.stored.get(linkId);
    const on = this.seededOn.get(linkId);
    let seeding = false;
    if (stored === undefined || on !== this.run) {
      if (seedRun !== this.run) {
        const unknown = stored !== undefined || on !== undefined;
        return { run: this.run, upMs: unknown ? 0 : Math.max(0, this.upSeconds - 1) * 1000 };
      }
      seeding = true;
      stored ??= 0;
      this.seededOn.set(linkId, this.run);
    }
    const count = Math.max(stored, floor);
    if (count >= cap) {
      if (count > stored || seeding) this.stored.set(linkId, count);
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
    this.seededOn.delete(linkId);
  }

  /** Started again, empty, with a new run id. */
  restart(): void {
    this.run = `run-${Number(this.run.slice(4)) + 1}`;
    this.stored.clear();
    this.seededOn.clear();
    this.upSeconds = 0;
  }
}

/** An instance with Redis up, over a database whose link has `clicksOf` clicks written. */
function withRedisUp(clicksOf: () => number = () => 0, graceMs = 0) {
  const redis = new FakeRedisQuota();
  const state = { up: true, generation: 1, losses: 1, lostAt: null as number | null, lost() {} };
  const claims = new MemoryClickClaimStore(clicksOf);
  const quota = new FallbackClickQuota(redis, claims, state, { graceMs });
  /** Redis restarted empty and the client reconnected. */
  const restartRedis = () => {
    state.generation++;
    redis.restart();
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

  test('Redis restarted without this instance noticing (no failed call, no reconnection seen): it seeds the emptied count from the database rather than count from what it saw', async () => {
    let written = 10;
    const { redis, quota } = withRedisUp(() => written);
    redis.stored.set(7, 9);
    redis.seededOn.set(7, redis.run);
    assert.equal(await quota.claim(7, 20, 0), true, 'this instance saw 10');
    // The other instances took Redis to 18, all written; Redis restarted between two claims.
    written = 18;
    redis.restart();
    const granted = [];
    for (let i = 0; i < 5; i++) granted.push(await quota.claim(7, 20, 0));
    assert.deepEqual(granted, [true, true, false, false, false]);
    assert.equal(redis.stored.get(7), 20);
  });

  test('seeding waits the grace after Redis started: the clicks granted on the Redis before are written by then', async () => {
    let written = 17;
    const { redis, quota } = withRedisUp(() => written, 100);
    // Other instances took Redis to the cap; it restarted empty, three clicks still buffered.
    redis.restart();
    setTimeout(() => (written = 20), 20);
    const started = Date.now();
    assert.equal(await quota.claim(7, 20, 0), false);
    assert.ok(Date.now() - started >= 90, `waited ${Date.now() - started} ms`);
    assert.equal(redis.stored.get(7), 20);
  });

  test('a Redis up for longer than the grace: a link’s first claim seeds it at once (a new link waits for nothing)', async () => {
    const { redis, quota } = withRedisUp(() => 0, 60_000);
    const started = Date.now();
    assert.equal(await quota.claim(7, 20, 0), true);
    assert.ok(Date.now() - started < 1000, `waited ${Date.now() - started} ms`);
    assert.deepEqual(redis.calls, ['', 'run-1']);
    assert.equal(redis.stored.get(7), 1);
  });

  test('a seed read for one run is refused by the next: Redis restarted again while it was on its way', async () => {
    let written = 15;
    const { redis, quota } = withRedisUp(() => written);
    redis.restart();
    // The seed of 15 leaves; Redis restarts again before it arrives, after 3 more clicks were written.
    redis.during = () => {
      redis.during = () => {
        written = 18;
        redis.restart();
      };
    };
    assert.equal(await quota.claim(7, 20, 0), true);
    assert.deepEqual(redis.calls, ['', 'run-2', 'run-3']);
    assert.equal(redis.stored.get(7), 19);
  });

  test('the database away while Redis must be seeded: the claim is unavailable (503), counted nowhere, and Redis not taken for lost', async () => {
    const { redis, state, claims, quota } = withRedisUp(() => 5);
    redis.restart();
    let losses = 0;
    state.lost = () => void losses++;
    claims.close = () => Promise.reject(new UnavailableError('database'));
    await assert.rejects(() => quota.claim(7, 20, 0), UnavailableError);
    assert.equal(losses, 0);
    assert.equal(redis.stored.has(7), false);
    assert.equal(claims.counts.has(7), false);
  });
});

describe('FallbackClickQuota, on a Redis that is there but cannot count (scripts cannot read its run id)', () => {
  test('a claim is unavailable (503): Redis not taken for lost, no database count opened beside it, nothing granted', async () => {
    const { redis, state, claims, quota } = withRedisUp(() => 5);
    let losses = 0;
    state.lost = () => void losses++;
    redis.claimCount = () => Promise.reject(new UnseedableError('shared store (Redis)'));
    for (let i = 0; i < 3; i++) await assert.rejects(() => quota.claim(7, 20, 0), UnseedableError);
    assert.equal(losses, 0);
    assert.equal(claims.counts.get(7)?.open ?? false, false, 'the database count is not open');
  });
});

describe('FallbackClickQuota, two instances around a short outage', () => {
  test('one back on Redis takes a link back before any count was opened: the other, still without Redis, does not open one beside it', async () => {
    const redis = new FakeRedisQuota();
    const claims = new MemoryClickClaimStore(() => 30);
    const lostAt = Date.now() - 10;
    // Both lost Redis at once; A has reconnected, B not yet (its claims wait in ioredis's queue).
    const back = { up: true, generation: 2, losses: 2, lostAt: null as number | null, lost() {} };
    const away = { up: false, generation: 1, losses: 2, lostAt: lostAt as number | null, lost() {} };
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
