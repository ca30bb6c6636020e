import type { Invitation, Member, WorkspaceOfUser } from '../../../core/workspaces/workspace.ts';
import type { WorkspaceKey } from '../../../core/workspaces/workspace-keys-service.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export const workspaceRecord = (w: WorkspaceOfUser) => ({
  id: w.id,
  name: w.name,
  role: w.role,
  personal: w.personal,
  require_2fa: w.requireTwoFactor,
  timezone: w.timezone,
  created_at: iso(w.createdAt),
});

export const memberRecord = (m: Member) => ({
  user_id: m.userId,
  name: m.name,
  email: m.email,
  role: m.role,
  two_factor: m.twoFactor,
  joined_at: iso(m.joinedAt),
});

export const invitationRecord = (i: Invitation, now: number) => ({
  id: i.id,
  email: i.email,
  role: i.role,
  created_at: iso(i.createdAt),
  expires_at: iso(i.expiresAt),
  expired: i.expiresAt <= now,
});

export const workspaceKeyRecord = ({ key, userName, userEmail }: WorkspaceKey) => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  scopes: key.scopes,
  expires_at: isoOrNull(key.expiresAt),
  created_at: iso(key.createdAt),
  last_used_at: isoOrNull(key.lastUsedAt),
  revoked_at: isoOrNull(key.revokedAt),
  user: { id: key.userId, name: userName, email: userEmail },
});
