import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statsAccess } from './stats-access.ts';

const link = (privacy: 0 | 1 | 2, privacyPasswordHash: string | null = null) => ({ accountId: 1, privacy, privacyPasswordHash });
const active = { suspendedAt: null };
const never = () => false;

test('the owner always; others by privacy', () => {
  for (const privacy of [0, 1, 2] as const) assert.equal(statsAccess(link(privacy, 'h'), active, 1, never), 'owner');
  assert.equal(statsAccess(link(0), active, null, never), 'public');
  assert.equal(statsAccess(link(0), active, 2, never), 'public');
  assert.equal(statsAccess(link(1), active, null, never), 'hidden');
  assert.equal(statsAccess(link(1), active, 2, never), 'hidden');
  assert.equal(statsAccess(link(2, 'h'), active, null, never), 'locked');
  assert.equal(
    statsAccess(link(2, 'h'), active, 2, (hash) => hash === 'h'),
    'unlocked',
  );
});

test('hidden: no link, no owner, a suspended owner, privacy 2 without a password', () => {
  assert.equal(statsAccess(null, active, null, never), 'hidden');
  assert.equal(statsAccess(link(0), null, null, never), 'hidden');
  assert.equal(statsAccess(link(0), { suspendedAt: 1 }, null, never), 'hidden');
  assert.equal(
    statsAccess(link(2, null), active, null, () => true),
    'hidden',
  );
});
