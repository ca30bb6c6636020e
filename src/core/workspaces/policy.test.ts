import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ACTIONS, POLICY, ROLES, missingFor, roleAllows } from './policy.ts';

test('each role may do what the role below it may, and more', () => {
  for (const action of ACTIONS) {
    const allowed = ROLES.map((role) => roleAllows(role, action));
    const first = allowed.indexOf(true);
    assert.ok(first >= 0, `${action}: some role may`);
    assert.ok(allowed.slice(first).every(Boolean), `${action}: every role above ${ROLES[first]} may too`);
    assert.equal(ROLES[first], POLICY[action].role);
  }
});

test('the issue’s roles: viewers read, editors write links, admins domains and webhooks, owners the workspace', () => {
  assert.deepEqual(
    ROLES.map((r) => [
      roleAllows(r, 'links.read'),
      roleAllows(r, 'links.write'),
      roleAllows(r, 'domains.write'),
      roleAllows(r, 'webhooks.read'),
      roleAllows(r, 'workspace.delete'),
    ]),
    [
      [true, false, false, false, false],
      [true, true, false, false, false],
      [true, true, true, true, false],
      [true, true, true, true, true],
    ],
  );
});

test('a key never does more than its role; a scoped key only what its scopes name; no member: the role is missing', () => {
  assert.equal(missingFor({ role: 'owner', scopes: null }, 'links.write'), null);
  assert.deepEqual(missingFor({ role: 'viewer', scopes: null }, 'links.write'), { role: 'editor' });
  assert.deepEqual(
    missingFor({ role: 'viewer', scopes: ['links:write'] }, 'links.write'),
    { role: 'editor' },
    'a scope does not make up for the role',
  );
  assert.deepEqual(missingFor({ role: 'editor', scopes: ['links:read'] }, 'links.write'), { scope: 'links:write' });
  assert.equal(
    missingFor({ role: 'editor', scopes: ['links:read'] }, 'account.read'),
    null,
    'the account needs no scope',
  );
  assert.deepEqual(missingFor({ role: null, scopes: null }, 'links.read'), { role: 'viewer' });
});

test('a workspace that requires two-factor: a member without it may only see the workspace (and leave it) until enrolled', () => {
  const unenrolled = { role: 'owner', scopes: null, twoFactorMissing: true } as const;
  for (const action of ACTIONS) {
    const expected = action === 'account.read' || action === 'workspace.read' ? null : { twoFactor: true };
    assert.deepEqual(missingFor(unenrolled, action), expected, action);
  }
  assert.deepEqual(
    missingFor({ role: 'viewer', scopes: null, twoFactorMissing: true }, 'links.write'),
    { role: 'editor' },
    'the role is named first',
  );
  assert.equal(missingFor({ role: 'viewer', scopes: null, twoFactorMissing: false }, 'keys.own'), null);
});
