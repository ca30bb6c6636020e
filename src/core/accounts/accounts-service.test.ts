import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Account, ApiKey } from './account.ts';
import type { AccountStore } from './account-store.ts';
import { AccountsService, KEY_TOUCH_EVERY_MS } from './accounts-service.ts';
import { generateApiKey } from './api-key.ts';
import type { RedirectInvalidation } from '../redirect/redirect-events.ts';

const ACCOUNT: Account = { id: 7, name: 'A', email: 'a@example.com', timezone: 'UTC', createdAt: 0, isAdmin: false, suspendedAt: null };

/** The store's key lookup and its writes, counted; nothing else is called by these tests. */
function fakeStore(key: ApiKey) {
  const touches: number[] = [];
  const deleted: number[] = [];
  const store = {
    findKeyByHash: async () => ({ key: { ...key }, account: ACCOUNT }),
    touchKey: async (_id: number, now: number) => {
      touches.push(now);
      key.lastUsedAt = now;
    },
    deleteAccount: async (id: number) => {
      deleted.push(id);
      return id === ACCOUNT.id ? [11, 12] : null;
    },
  } as unknown as AccountStore;
  return { store, touches, deleted };
}

test("a key's use is written at most once a minute, however many requests it makes", async () => {
  const made = generateApiKey('k');
  const key: ApiKey = { id: 1, accountId: 7, name: 'k', prefix: made.stored.prefix, createdAt: 0, lastUsedAt: null, revokedAt: null };
  const { store, touches } = fakeStore(key);
  let now = 1_000_000;
  const service = new AccountsService(store, { now: () => now });
  for (let i = 0; i < 10; i++) {
    await service.authenticate(made.plaintext);
    now += 1000;
  }
  assert.deepEqual(touches, [1_000_000], 'ten requests in ten seconds: one write');
  now = 1_000_000 + KEY_TOUCH_EVERY_MS + 1;
  await service.authenticate(made.plaintext);
  assert.deepEqual(touches, [1_000_000, now]);
});

test('deleting an account tells the redirect and forgets the click caps of its links', async () => {
  const key: ApiKey = { id: 1, accountId: 7, name: null, prefix: 'lpx_', createdAt: 0, lastUsedAt: null, revokedAt: null };
  const { store, deleted } = fakeStore(key);
  const changed: number[] = [];
  const forgotten: number[] = [];
  const invalidation: RedirectInvalidation = { linkChanged: () => {}, accountChanged: (id) => changed.push(id) };
  const service = new AccountsService(store, { now: () => 0 }, { invalidation, forgetQuota: async (id) => void forgotten.push(id) });
  await service.deleteAccount(7);
  assert.deepEqual({ deleted, changed, forgotten }, { deleted: [7], changed: [7], forgotten: [11, 12] });
  await assert.rejects(service.deleteAccount(8), { name: 'Error', message: 'account not found' });
  assert.deepEqual(changed, [7], 'nothing to tell when there was no such account');
});
