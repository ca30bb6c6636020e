// What every store of the workspace tables promises (WorkspaceTables, src/core/workspaces/workspace-store.ts),
// as the workspaces, members, invitations and keys services and the policy's role reads rely on it: run against
// the SQL store on both engines.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WorkspaceTables } from '../../src/core/workspaces/workspace-store.ts';
import type { Role } from '../../src/core/workspaces/policy.ts';

export interface WorkspaceStoreSubject {
  workspaces: WorkspaceTables;
  /** A person, with their personal workspace (its id is theirs). */
  user: () => Promise<{ id: number; email: string }>;
  /** A live key of the person acting in the workspace. */
  key: (workspaceId: number, userId: number) => Promise<number>;
}

const team = (name: string) => ({ name, requireTwoFactor: false, timezone: 'UTC' });
let tokens = 0;
const invite = (email: string, role: Role, invitedBy: number, expiresAt = 10_000) => ({
  email,
  role,
  tokenHash: `h${process.pid.toString(36)}${Date.now().toString(36)}${++tokens}`,
  invitedBy,
  expiresAt,
});

export function describeWorkspaceStoreContract(name: string, make: () => WorkspaceStoreSubject): void {
  describe(`${name}: the WorkspaceStore contract`, () => {
    test('create makes a team workspace with its owner; find, update, standingOf; listOfUser: personal first, then by id', async () => {
      const s = make();
      const [owner, other] = [await s.user(), await s.user()];
      const a = await s.workspaces.create(owner.id, team('Alpha'), 1000);
      assert.deepEqual(a, {
        id: a.id,
        name: 'Alpha',
        personal: false,
        requireTwoFactor: false,
        timezone: 'UTC',
        createdAt: 1000,
      });
      const b = await s.workspaces.create(owner.id, team('Beta'), 2000);
      assert.deepEqual(await s.workspaces.find(a.id), a);
      assert.equal(await s.workspaces.find(2 ** 31 - 1), null);
      assert.equal((await s.workspaces.standingOf(a.id, owner.id))?.role ?? null, 'owner');
      assert.equal((await s.workspaces.standingOf(a.id, other.id))?.role ?? null, null);
      const updated = await s.workspaces.update(a.id, {
        name: 'Alpha 2',
        requireTwoFactor: true,
        timezone: 'Europe/Paris',
      });
      assert.deepEqual(updated, { ...a, name: 'Alpha 2', requireTwoFactor: true, timezone: 'Europe/Paris' });
      const mine = await s.workspaces.listOfUser(owner.id);
      assert.deepEqual(
        mine.map((w) => [w.id, w.personal, w.role]),
        [
          [owner.id, true, 'owner'],
          [a.id, false, 'owner'],
          [b.id, false, 'owner'],
        ],
      );
      assert.deepEqual(
        (await s.workspaces.listOfUser(other.id)).map((w) => w.id),
        [other.id],
      );
    });

    test('the last owner is never demoted nor removed; a non-member is not_found; a removed member has no role', async () => {
      const s = make();
      const [owner, member, stranger] = [await s.user(), await s.user(), await s.user()];
      const w = await s.workspaces.create(owner.id, team('Gamma'), 1000);
      const invitation = await s.workspaces.insertInvitation(w.id, invite(member.email, 'viewer', owner.id), 1000);
      assert.equal(await s.workspaces.acceptInvitation(invitation.id, member.id, 2000), 'viewer');
      assert.deepEqual(
        (await s.workspaces.members(w.id)).map((m) => [m.userId, m.email, m.role, m.joinedAt]),
        [
          [owner.id, owner.email, 'owner', 1000],
          [member.id, member.email, 'viewer', 2000],
        ],
      );
      assert.equal(await s.workspaces.setRole(w.id, owner.id, 'admin'), 'last_owner');
      assert.equal(await s.workspaces.removeMember(w.id, owner.id), 'last_owner');
      assert.equal(await s.workspaces.setRole(w.id, stranger.id, 'admin'), 'not_found');
      assert.equal(await s.workspaces.removeMember(w.id, stranger.id), 'not_found');
      assert.equal(await s.workspaces.setRole(w.id, member.id, 'owner'), 'done');
      assert.equal(await s.workspaces.setRole(w.id, owner.id, 'editor'), 'done', 'another owner remains');
      assert.equal((await s.workspaces.standingOf(w.id, owner.id))?.role ?? null, 'editor');
      assert.equal(await s.workspaces.removeMember(w.id, owner.id), 'done');
      assert.equal((await s.workspaces.standingOf(w.id, owner.id))?.role ?? null, null);
      assert.deepEqual(
        (await s.workspaces.members(w.id)).map((m) => m.userId),
        [member.id],
      );
    });

    test('invitations: pending in id order without the revoked or accepted; revoked once, in its own workspace; found by hash', async () => {
      const s = make();
      const owner = await s.user();
      const [w, elsewhere] = [
        await s.workspaces.create(owner.id, team('Delta'), 1000),
        await s.workspaces.create(owner.id, team('Other'), 1000),
      ];
      const first = invite('a@example.com', 'editor', owner.id, 5000);
      const a = await s.workspaces.insertInvitation(w.id, first, 1000);
      assert.deepEqual(a, {
        id: a.id,
        workspaceId: w.id,
        email: 'a@example.com',
        role: 'editor',
        createdAt: 1000,
        expiresAt: 5000,
        acceptedAt: null,
        revokedAt: null,
      });
      const b = await s.workspaces.insertInvitation(w.id, invite('b@example.com', 'viewer', owner.id), 1100);
      const c = await s.workspaces.insertInvitation(w.id, invite('c@example.com', 'admin', owner.id, 500), 1200);
      await s.workspaces.insertInvitation(elsewhere.id, invite('d@example.com', 'viewer', owner.id), 1200);
      assert.equal(await s.workspaces.revokeInvitation(elsewhere.id, b.id, 2000), false);
      assert.equal(await s.workspaces.revokeInvitation(w.id, b.id, 2000), true);
      assert.equal(await s.workspaces.revokeInvitation(w.id, b.id, 2001), false);
      assert.deepEqual(
        (await s.workspaces.pendingInvitations(w.id)).map((i) => i.id),
        [a.id, c.id],
        'an expired one stays listed',
      );
      assert.deepEqual(await s.workspaces.findInvitationByHash(first.tokenHash), a);
      assert.equal(await s.workspaces.findInvitationByHash('no-such-hash'), null);
    });

    test('accept: once, not after expiry or revocation; a member keeps their role; keys of an earlier membership stay revoked', async () => {
      const s = make();
      const [owner, joiner] = [await s.user(), await s.user()];
      const w = await s.workspaces.create(owner.id, team('Epsilon'), 1000);
      const expired = await s.workspaces.insertInvitation(w.id, invite(joiner.email, 'admin', owner.id, 2000), 1000);
      assert.equal(await s.workspaces.acceptInvitation(expired.id, joiner.id, 2000), null);
      const revoked = await s.workspaces.insertInvitation(w.id, invite(joiner.email, 'admin', owner.id), 1000);
      await s.workspaces.revokeInvitation(w.id, revoked.id, 1500);
      assert.equal(await s.workspaces.acceptInvitation(revoked.id, joiner.id, 2000), null);
      const good = await s.workspaces.insertInvitation(w.id, invite(joiner.email, 'editor', owner.id), 1000);
      assert.equal(await s.workspaces.acceptInvitation(good.id, joiner.id, 3000), 'editor');
      assert.equal(await s.workspaces.acceptInvitation(good.id, joiner.id, 3001), null, 'used');
      const again = await s.workspaces.insertInvitation(w.id, invite(joiner.email, 'viewer', owner.id), 3000);
      assert.equal(
        await s.workspaces.acceptInvitation(again.id, joiner.id, 3100),
        'editor',
        'a member keeps their role',
      );

      const key = await s.key(w.id, joiner.id);
      assert.equal(await s.workspaces.removeMember(w.id, joiner.id), 'done');
      const back = await s.workspaces.insertInvitation(w.id, invite(joiner.email, 'viewer', owner.id), 4000);
      assert.equal(await s.workspaces.acceptInvitation(back.id, joiner.id, 4100), 'viewer');
      const [listed] = await s.workspaces.keys(w.id, joiner.id);
      assert.equal(listed?.key.id, key);
      assert.equal(listed?.key.revokedAt, 4100);
    });

    test('keys: the workspace’s, of one person or all, with each key’s person; revokeKey only a live key of its workspace (and person)', async () => {
      const s = make();
      const [owner, member] = [await s.user(), await s.user()];
      const w = await s.workspaces.create(owner.id, team('Zeta'), 1000);
      await s.workspaces.acceptInvitation(
        (await s.workspaces.insertInvitation(w.id, invite(member.email, 'editor', owner.id), 1000)).id,
        member.id,
        1000,
      );
      const ownerKey = await s.key(w.id, owner.id);
      const memberKey = await s.key(w.id, member.id);
      await s.key(owner.id, owner.id);
      assert.deepEqual(
        (await s.workspaces.keys(w.id, null)).map((k) => [k.key.id, k.key.accountId, k.key.userId, k.userEmail]),
        [
          [ownerKey, w.id, owner.id, owner.email],
          [memberKey, w.id, member.id, member.email],
        ],
      );
      assert.deepEqual(
        (await s.workspaces.keys(w.id, member.id)).map((k) => k.key.id),
        [memberKey],
      );
      assert.equal(await s.workspaces.revokeKey(owner.id, memberKey, null, 2000), false, 'another workspace');
      assert.equal(await s.workspaces.revokeKey(w.id, memberKey, owner.id, 2000), false, 'another person');
      assert.equal(await s.workspaces.revokeKey(w.id, memberKey, member.id, 2000), true);
      assert.equal(await s.workspaces.revokeKey(w.id, memberKey, null, 2001), false, 'revoked already');
      assert.equal((await s.workspaces.keys(w.id, member.id))[0]?.key.revokedAt, 2000);
    });

    test('emailOfUser: the person’s address; none for a team workspace', async () => {
      const s = make();
      const person = await s.user();
      const w = await s.workspaces.create(person.id, team('Eta'), 1000);
      assert.equal(await s.workspaces.emailOfUser(person.id), person.email);
      assert.equal(await s.workspaces.emailOfUser(w.id), null);
    });
  });
}
