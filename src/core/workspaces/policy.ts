/**
 * The one table that decides what a member may do (docs/design/teams.md): each action names the least
 * role that may take it and the key scope that covers it. Nothing else compares roles.
 */
export const ROLES = ['viewer', 'editor', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export const SCOPES = [
  'links:read',
  'links:write',
  'pixels:read',
  'pixels:write',
  'spaces:read',
  'spaces:write',
  'domains:read',
  'domains:write',
  'stats:read',
  'conversions:write',
  'webhooks:read',
  'webhooks:write',
  'workspace:admin',
] as const;
export type Scope = (typeof SCOPES)[number];

interface Rule {
  /** The least role that may take the action. */
  role: Role;
  /** The scope a key with scopes needs; null: any key of the member may. */
  scope: Scope | null;
  /** Allowed before two-factor where a workspace requires it (seeing the workspace, and leaving it). */
  beforeTwoFactor?: true;
}

export const POLICY = {
  'account.read': { role: 'viewer', scope: null, beforeTwoFactor: true },
  'links.read': { role: 'viewer', scope: 'links:read' },
  'links.write': { role: 'editor', scope: 'links:write' },
  'links.export': { role: 'editor', scope: 'links:read' },
  'links.import': { role: 'editor', scope: 'links:write' },
  'pixels.read': { role: 'viewer', scope: 'pixels:read' },
  'pixels.write': { role: 'editor', scope: 'pixels:write' },
  'spaces.read': { role: 'viewer', scope: 'spaces:read' },
  'spaces.write': { role: 'editor', scope: 'spaces:write' },
  'domains.read': { role: 'viewer', scope: 'domains:read' },
  'domains.write': { role: 'admin', scope: 'domains:write' },
  'stats.read': { role: 'viewer', scope: 'stats:read' },
  /** Recording conversions: a key with this scope alone may (a shop's server), and nothing else. */
  'conversions.write': { role: 'editor', scope: 'conversions:write' },
  'webhooks.read': { role: 'admin', scope: 'webhooks:read' },
  'webhooks.write': { role: 'admin', scope: 'webhooks:write' },
  'workspace.read': { role: 'viewer', scope: null, beforeTwoFactor: true },
  /** Making another workspace (judged by the role in the key's own). */
  'workspace.create': { role: 'viewer', scope: 'workspace:admin' },
  /** Members' names, emails and two-factor standing: a key needs workspace:admin (not a shop's conversions:write key). */
  'members.read': { role: 'viewer', scope: 'workspace:admin' },
  /** Roles below owner, and removing such members. */
  'members.manage': { role: 'admin', scope: 'workspace:admin' },
  /** Making, demoting and removing owners. */
  'owners.manage': { role: 'owner', scope: 'workspace:admin' },
  'invitations.manage': { role: 'admin', scope: 'workspace:admin' },
  /** A member's own keys: any role (a key never does more than its user's role). */
  'keys.own': { role: 'viewer', scope: 'workspace:admin' },
  /** Every key of the workspace, with their users. */
  'keys.all': { role: 'admin', scope: 'workspace:admin' },
  /** The endpoints Stripe and Shopify post sales to, and their signing secrets (docs/design/integrations.md). */
  'integrations.manage': { role: 'admin', scope: 'workspace:admin' },
  /** The workspace's audit log (docs/design/teams.md). */
  'audit.read': { role: 'admin', scope: 'workspace:admin' },
  'workspace.settings': { role: 'owner', scope: 'workspace:admin' },
  'workspace.delete': { role: 'owner', scope: 'workspace:admin' },
} as const satisfies Record<string, Rule>;

export type Action = keyof typeof POLICY;
export const ACTIONS = Object.keys(POLICY) as Action[];

/** Who asks: a member's role in the workspace (null: no longer a member) and the key's scopes (null: all). */
export interface Grant {
  role: Role | null;
  scopes: readonly Scope[] | null;
  /** True when the workspace requires two-factor sign-in and the member has not turned it on. */
  twoFactorMissing?: boolean;
}

/** What a refusal names: the role the action needs, the workspace's two-factor rule, or the scope the key lacks. */
export type Missing = { role: Role } | { twoFactor: true } | { scope: Scope };

function rankOf(role: Role): number {
  return ROLES.indexOf(role);
}

export function roleAllows(role: Role | null, action: Action): boolean {
  return role !== null && rankOf(role) >= rankOf(POLICY[action].role);
}

/**
 * Null when the grant allows the action, else what is missing: the role first (a scope cannot
 * make up for it), then two-factor where the workspace requires it, then the key's scope.
 */
export function missingFor(grant: Grant, action: Action): Missing | null {
  const rule: Rule = POLICY[action];
  if (!roleAllows(grant.role, action)) return { role: rule.role };
  if (grant.twoFactorMissing === true && rule.beforeTwoFactor !== true) return { twoFactor: true };
  if (rule.scope !== null && grant.scopes !== null && !grant.scopes.includes(rule.scope)) return { scope: rule.scope };
  return null;
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}
