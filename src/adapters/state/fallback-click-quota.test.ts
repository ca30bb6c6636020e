import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FallbackClickQuota } from './fallback-click-quota.ts';
import type { ClaimAnswer, ClickClaimStore } from '../../core/clicks/ports.ts';

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

/** The database's count: closed once, as the SQL store closes it. */
class FakeClaims implements ClickClaimStore {
  constructor(public count: number | null) {}
  closed = false;
  async open(): Promise<'open' | 'closed' | 'gone'> {
    return this.closed ? 'closed' : 'open';
  }
  async claim(_linkId: number, cap: number): Promise<ClaimAnswer> {
    if (this.closed) return 'closed';
    if ((this.count ?? 0) >= cap) return 'refused';
    this.count = (this.count ?? 0) + 1;
    return 'granted';
  }
  async close(): Promise<number | null> {
    this.closed = true;
    return this.count;
  }
  async claimed(): Promise<number | null> {
    return this.count;
  }
}

/** One claim through Redis before the outage: this instance has the link synced on its connection. */
async function synced(count: number) {
  const redis = new FakeRedisQuota();
  const state = { up: true, generation: 1, losses: 1, lostAt: null as number | null, lost() {} };
  const claims = new FakeClaims(null);
  const quota = new FallbackClickQuota(redis, claims, state, { graceMs: 0 });
  assert.equal(await quota.claim(7, 20, 7), true);
  // Meanwhile Redis went away, the database counted (other instances too), Redis came back empty.
  claims.count = count;
  claims.closed = false;
  return { redis, state, claims, quota };
}

describe('FallbackClickQuota', () => {
  test('a claim resent across a reconnection onto an emptied Redis does not grant past what the database counted', async () => {
    // While Redis was away the database counted the link to its cap of 20.
    const { redis, state, quota } = await synced(20);
    // The claim was sent with the floor this instance knew before the outage, and runs after
    // Redis restarted empty and the client reconnected.
    redis.during = () => {
      state.generation++;
      redis.stored.clear();
    };
    assert.equal(await quota.claim(7, 20, 8), false);
    assert.equal(redis.stored.get(7), 20);
    assert.equal(await quota.claim(7, 20, 8), false);
  });

  test('a claim resent across a reconnection, under the cap the database counted, is granted once from that count', async () => {
    const { redis, state, quota } = await synced(15);
    redis.during = () => {
      state.generation++;
      redis.stored.clear();
    };
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
});
