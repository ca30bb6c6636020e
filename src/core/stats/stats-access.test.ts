import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seesEveryValue, showsDestination, statsAccess } from './stats-access.ts';

const link = (privacy: 0 | 1 | 2, privacyPasswordHash: string | null = null) => ({
  accountId: 1,
  privacy,
  privacyPasswordHash,
});
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

test('every value for the owner only; a password-unlocked visitor sees what the public sees', () => {
  assert.equal(seesEveryValue('owner'), true);
  for (const access of ['public', 'unlocked', 'locked', 'hidden'] as const)
    assert.equal(seesEveryValue(access), false, access);
});

test('the destination: to the owner always; to others only while the redirect itself sends visitors there', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  const plain = {
    passwordHash: null,
    disabled: 0 as const,
    blockedAt: null,
    endsAt: null,
    expirationClicks: null,
    clicks: 3,
  };
  for (const access of ['public', 'unlocked'] as const) {
    assert.equal(showsDestination(access, plain, now), true);
    assert.equal(showsDestination(access, { ...plain, endsAt: now + 1 }, now), true, 'not expired yet');
    assert.equal(showsDestination(access, { ...plain, expirationClicks: 4 }, now), true, 'a click left');
    assert.equal(showsDestination(access, { ...plain, passwordHash: 'h' }, now), false, 'a redirect password');
    assert.equal(showsDestination(access, { ...plain, disabled: 1 }, now), false, 'disabled');
    assert.equal(showsDestination(access, { ...plain, disabled: 1, blockedAt: now - 1 }, now), false, 'taken down');
    assert.equal(
      showsDestination(access, { ...plain, blockedAt: now - 1 }, now),
      false,
      'taken down, whatever disabled says',
    );
    assert.equal(showsDestination(access, { ...plain, endsAt: now }, now), false, 'expired by date');
    assert.equal(showsDestination(access, { ...plain, expirationClicks: 3 }, now), false, 'expired by clicks');
  }
  assert.equal(showsDestination('owner', { ...plain, passwordHash: 'h', disabled: 1, endsAt: now }, now), true);
});
