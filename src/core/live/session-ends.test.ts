import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionStore } from '../accounts/account-store.ts';
import { announcingEnds, type SessionEnds } from './session-ends.ts';

/** A store that holds session ids per account, and ends that record what they were told. */
function fakes() {
  const held = new Map<number, Set<number>>([[1, new Set([10, 11])]]);
  const told: number[] = [];
  const store = {
    delete: async (accountId: number, sessionId: number) => held.get(accountId)?.delete(sessionId) ?? false,
    deleteAll: async (accountId: number, keepId: number | null) => {
      for (const id of held.get(accountId) ?? []) if (id !== keepId) held.get(accountId)?.delete(id);
    },
  } as unknown as SessionStore;
  const ends: SessionEnds = { publish: (id) => void told.push(id), subscribe: () => () => {}, close: async () => {} };
  return { held, told, sessions: announcingEnds(store, ends) };
}

test('an ended session is announced after the write, with its account', async () => {
  const { held, told, sessions } = fakes();
  assert.equal(await sessions.delete(1, 10), true);
  assert.deepEqual([...held.get(1)!], [11]);
  assert.deepEqual(told, [1]);
});

test('no session ended, nothing announced', async () => {
  const { told, sessions } = fakes();
  assert.equal(await sessions.delete(1, 99), false);
  assert.deepEqual(told, []);
});

test('ending all (others, a new password, a suspension) is announced once', async () => {
  const { held, told, sessions } = fakes();
  await sessions.deleteAll(1, 11);
  assert.deepEqual([...held.get(1)!], [11]);
  await sessions.deleteAll(1, null);
  assert.deepEqual(told, [1, 1]);
});
