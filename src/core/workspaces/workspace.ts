import type { Role, Scope } from './policy.ts';

/** What a team works in (docs/design/teams.md): an `accounts` row; a personal one shares its person's id. */
export interface Workspace {
  id: number;
  name: string;
  personal: boolean;
  requireTwoFactor: boolean;
  /** The time zone of its statistics. */
  timezone: string;
  createdAt: number;
}

export interface WorkspaceOfUser extends Workspace {
  role: Role;
}

export interface Member {
  userId: number;
  name: string;
  email: string;
  role: Role;
  /** Whether the member signs in with a second factor (two-factor confirmed). */
  twoFactor: boolean;
  joinedAt: number;
}

/** A member's standing in a workspace, read on every request: their role, and whether its two-factor rule stops them. */
export interface Standing {
  role: Role;
  /** The member has turned two-factor sign-in on. */
  twoFactor: boolean;
  /** The workspace requires two-factor sign-in and the member has not turned it on. */
  twoFactorMissing: boolean;
}

export interface Invitation {
  id: number;
  workspaceId: number;
  email: string;
  role: Role;
  createdAt: number;
  expiresAt: number;
  acceptedAt: number | null;
  revokedAt: number | null;
}

/** Who acts: the key's person and the key's scopes (null: all the role allows). */
export interface Actor {
  userId: number;
  keyId: number | null;
  scopes: readonly Scope[] | null;
  /** The workspace the key belongs to, and its user's role there now (null: no longer a member). */
  home: { workspaceId: number; role: Role | null };
  /** The door it came through, for the audit log; absent: a key's is the API, no key the web app. */
  via?: 'web' | 'api' | 'cli';
}

export interface WorkspaceSettings {
  name: string;
  requireTwoFactor: boolean;
  timezone: string;
}
