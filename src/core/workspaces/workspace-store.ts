import type { ApiKey } from '../accounts/account.ts';
import type { Role } from './policy.ts';
import type { Invitation, Member, Standing, Workspace, WorkspaceOfUser, WorkspaceSettings } from './workspace.ts';

/** The workspaces themselves, and a member's standing in one (docs/design/teams.md). */
export interface WorkspaceStore {
  listOfUser(userId: number): Promise<WorkspaceOfUser[]>;
  find(workspaceId: number): Promise<Workspace | null>;
  /** Read on every request: nothing caches a role or two-factor, so a demotion counts at the next one. Null: not a member. */
  standingOf(workspaceId: number, userId: number): Promise<Standing | null>;
  /** A team workspace and its first owner, in one transaction. */
  create(ownerId: number, settings: WorkspaceSettings, now: number): Promise<Workspace>;
  update(workspaceId: number, settings: WorkspaceSettings): Promise<Workspace>;
}

/** What changing a membership found: done, no such member, or the workspace's last owner. */
export type MembershipChange = 'done' | 'not_found' | 'last_owner';

/** A workspace's members and their roles. */
export interface MemberStore {
  members(workspaceId: number): Promise<Member[]>;
  /** In one transaction that holds the workspace: the last owner is never demoted. */
  setRole(workspaceId: number, userId: number, role: Role): Promise<MembershipChange>;
  /** In one transaction that holds the workspace: the last owner never leaves. Their keys there answer 403 (no role). */
  removeMember(workspaceId: number, userId: number): Promise<MembershipChange>;
}

export interface NewInvitation {
  email: string;
  role: Role;
  tokenHash: string;
  invitedBy: number;
  expiresAt: number;
}

/** Invitations, kept by the digest of their token. */
export interface InvitationStore {
  insertInvitation(workspaceId: number, invitation: NewInvitation, now: number): Promise<Invitation>;
  /** Invitations not yet accepted nor revoked (expired ones included: the list says so). */
  pendingInvitations(workspaceId: number): Promise<Invitation[]>;
  revokeInvitation(workspaceId: number, invitationId: number, now: number): Promise<boolean>;
  findInvitationByHash(tokenHash: string): Promise<Invitation | null>;
  /**
   * Marks the invitation used and makes the user a member, in one transaction; false when it was
   * used or revoked meanwhile. A member already keeps their role.
   */
  acceptInvitation(invitationId: number, userId: number, now: number): Promise<Role | null>;
  /** The person's email (their personal workspace's), for matching invitations. */
  emailOfUser(userId: number): Promise<string | null>;
}

/** A workspace's API keys as its members see them (made through the account store). */
export interface WorkspaceKeyStore {
  /** The workspace's keys (of one user, or of all with null), with each key's person. */
  keys(workspaceId: number, userId: number | null): Promise<{ key: ApiKey; userName: string; userEmail: string }[]>;
  /** Revokes a live key of the workspace (of that user unless null); false when none. */
  revokeKey(workspaceId: number, keyId: number, userId: number | null, now: number): Promise<boolean>;
}

/** The four slices together: what one store of the workspace tables implements per engine. */
export type WorkspaceTables = WorkspaceStore & MemberStore & InvitationStore & WorkspaceKeyStore;
