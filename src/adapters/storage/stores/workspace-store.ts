import { sql, type Kysely, type Selectable } from 'kysely';
import type { Role } from '../../../core/workspaces/policy.ts';
import type {
  Invitation,
  Member,
  Standing,
  Workspace,
  WorkspaceOfUser,
  WorkspaceSettings,
} from '../../../core/workspaces/workspace.ts';
import type { MembershipChange, NewInvitation, WorkspaceTables } from '../../../core/workspaces/workspace-store.ts';
import { randomToken } from '../../../core/shared/secrets.ts';
import type { AccountsTable, Database, InvitationsTable } from '../schema.ts';
import { toKey } from './account-store.ts';
import { storeTransaction } from '../transactions.ts';

const toWorkspace = (
  r: Pick<Selectable<AccountsTable>, 'id' | 'name' | 'personal' | 'require_2fa' | 'timezone' | 'created_at'>,
): Workspace => ({
  id: r.id,
  name: r.name,
  personal: r.personal === 1,
  requireTwoFactor: r.require_2fa === 1,
  timezone: r.timezone,
  createdAt: r.created_at,
});

const toInvitation = (r: Selectable<InvitationsTable>): Invitation => ({
  id: r.id,
  workspaceId: r.workspace_id,
  email: r.email,
  role: r.role as Role,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  acceptedAt: r.accepted_at,
  revokedAt: r.revoked_at,
});

const WORKSPACE_COLUMNS = [
  'accounts.id',
  'accounts.name',
  'accounts.personal',
  'accounts.require_2fa',
  'accounts.timezone',
  'accounts.created_at',
] as const;

/**
 * Workspaces are `accounts` rows (docs/design/teams.md). A team's row holds no person: its email is a
 * unique value that no address can equal (no "@"), and it has no password, so no one signs in as it.
 */
export class SqlWorkspaceStore implements WorkspaceTables {
  constructor(private readonly db: Kysely<Database>) {}

  async listOfUser(userId: number): Promise<WorkspaceOfUser[]> {
    const rows = await this.db
      .selectFrom('memberships')
      .innerJoin('accounts', 'accounts.id', 'memberships.workspace_id')
      .select([...WORKSPACE_COLUMNS, 'memberships.role'])
      .where('memberships.user_id', '=', userId)
      // A suspended workspace is closed to its members too (they go on working elsewhere).
      .where('accounts.suspended_at', 'is', null)
      .orderBy('accounts.personal', 'desc')
      .orderBy('accounts.id')
      .execute();
    return rows.map((r) => ({ ...toWorkspace(r), role: r.role as Role }));
  }

  async find(workspaceId: number): Promise<Workspace | null> {
    const row = await this.db
      .selectFrom('accounts')
      .select(WORKSPACE_COLUMNS)
      .where('id', '=', workspaceId)
      .executeTakeFirst();
    return row ? toWorkspace(row) : null;
  }

  async standingOf(workspaceId: number, userId: number): Promise<Standing | null> {
    // One read per request: the membership, the workspace's rule and the person's confirmed two-factor.
    const row = await this.db
      .selectFrom('memberships')
      .innerJoin('accounts', 'accounts.id', 'memberships.workspace_id')
      .leftJoin('user_totp', (join) =>
        join.onRef('user_totp.user_id', '=', 'memberships.user_id').on('user_totp.confirmed_at', 'is not', null),
      )
      .select(['memberships.role', 'accounts.require_2fa', 'user_totp.user_id as enrolled'])
      .where('memberships.workspace_id', '=', workspaceId)
      .where('memberships.user_id', '=', userId)
      .where('accounts.suspended_at', 'is', null)
      .executeTakeFirst();
    if (!row) return null;
    const twoFactor = row.enrolled !== null;
    return { role: row.role as Role, twoFactor, twoFactorMissing: row.require_2fa === 1 && !twoFactor };
  }

  create(ownerId: number, settings: WorkspaceSettings, now: number): Promise<Workspace> {
    return storeTransaction(this.db, async (trx) => {
      const row = await trx
        .insertInto('accounts')
        .values({
          name: settings.name,
          email: `#workspace-${randomToken(16)}`,
          timezone: settings.timezone,
          require_2fa: settings.requireTwoFactor ? 1 : 0,
          personal: 0,
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('memberships')
        .values({ workspace_id: row.id, user_id: ownerId, role: 'owner', created_at: now })
        .execute();
      return toWorkspace(row);
    });
  }

  async update(workspaceId: number, settings: WorkspaceSettings): Promise<Workspace> {
    const row = await this.db
      .updateTable('accounts')
      .set({ name: settings.name, timezone: settings.timezone, require_2fa: settings.requireTwoFactor ? 1 : 0 })
      .where('id', '=', workspaceId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toWorkspace(row);
  }

  async members(workspaceId: number): Promise<Member[]> {
    const rows = await this.db
      .selectFrom('memberships')
      .innerJoin('accounts', 'accounts.id', 'memberships.user_id')
      .leftJoin('user_totp', (join) =>
        join.onRef('user_totp.user_id', '=', 'memberships.user_id').on('user_totp.confirmed_at', 'is not', null),
      )
      .select([
        'memberships.user_id',
        'memberships.role',
        'memberships.created_at',
        'accounts.name',
        'accounts.email',
        'user_totp.user_id as enrolled',
      ])
      .where('memberships.workspace_id', '=', workspaceId)
      .orderBy('memberships.created_at')
      .orderBy('memberships.user_id')
      .execute();
    return rows.map((r) => ({
      userId: r.user_id,
      name: r.name,
      email: r.email,
      role: r.role as Role,
      twoFactor: r.enrolled !== null,
      joinedAt: r.created_at,
    }));
  }

  setRole(workspaceId: number, userId: number, role: Role): Promise<MembershipChange> {
    return storeTransaction(this.db, async (trx) => {
      const current = await holdMembers(trx, workspaceId, userId);
      if (current === null) return 'not_found';
      if (current.role === 'owner' && role !== 'owner' && current.owners === 1) return 'last_owner';
      await trx
        .updateTable('memberships')
        .set({ role })
        .where('workspace_id', '=', workspaceId)
        .where('user_id', '=', userId)
        .execute();
      return 'done';
    });
  }

  removeMember(workspaceId: number, userId: number): Promise<MembershipChange> {
    return storeTransaction(this.db, async (trx) => {
      const current = await holdMembers(trx, workspaceId, userId);
      if (current === null) return 'not_found';
      if (current.role === 'owner' && current.owners === 1) return 'last_owner';
      // Their keys stay (an admin sees and deletes them) and answer 403 from the next request: no role.
      await trx
        .deleteFrom('memberships')
        .where('workspace_id', '=', workspaceId)
        .where('user_id', '=', userId)
        .execute();
      return 'done';
    });
  }

  async insertInvitation(workspaceId: number, invitation: NewInvitation, now: number): Promise<Invitation> {
    const row = await this.db
      .insertInto('invitations')
      .values({
        workspace_id: workspaceId,
        email: invitation.email,
        role: invitation.role,
        token_hash: invitation.tokenHash,
        invited_by: invitation.invitedBy,
        created_at: now,
        expires_at: invitation.expiresAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toInvitation(row);
  }

  async pendingInvitations(workspaceId: number): Promise<Invitation[]> {
    const rows = await this.db
      .selectFrom('invitations')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .orderBy('id')
      .execute();
    return rows.map(toInvitation);
  }

  async revokeInvitation(workspaceId: number, invitationId: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('invitations')
      .set({ revoked_at: now })
      .where('id', '=', invitationId)
      .where('workspace_id', '=', workspaceId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async findInvitationByHash(tokenHash: string): Promise<Invitation | null> {
    const row = await this.db
      .selectFrom('invitations')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row ? toInvitation(row) : null;
  }

  acceptInvitation(invitationId: number, userId: number, now: number): Promise<Role | null> {
    return storeTransaction(this.db, async (trx) => {
      // The update is the claim: of two accepts at once, one changes the row and the other nothing.
      const claimed = await trx
        .updateTable('invitations')
        .set({ accepted_at: now })
        .where('id', '=', invitationId)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .returning(['workspace_id', 'role'])
        .executeTakeFirst();
      if (!claimed) return null;
      const existing = await trx
        .selectFrom('memberships')
        .select('role')
        .where('workspace_id', '=', claimed.workspace_id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (existing) return existing.role as Role;
      // Keys left from an earlier membership do not come back with a new one.
      await trx
        .updateTable('api_keys')
        .set({ revoked_at: now })
        .where('account_id', '=', claimed.workspace_id)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute();
      await trx
        .insertInto('memberships')
        .values({ workspace_id: claimed.workspace_id, user_id: userId, role: claimed.role, created_at: now })
        .execute();
      return claimed.role as Role;
    });
  }

  async keys(workspaceId: number, userId: number | null) {
    let query = this.db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.user_id')
      .selectAll('api_keys')
      .select(['accounts.name as user_name', 'accounts.email as user_email'])
      .where('api_keys.account_id', '=', workspaceId);
    if (userId !== null) query = query.where('api_keys.user_id', '=', userId);
    const rows = await query.orderBy('api_keys.id').execute();
    return rows.map(({ user_name, user_email, ...key }) => ({
      key: toKey(key),
      userName: user_name,
      userEmail: user_email,
    }));
  }

  async revokeKey(workspaceId: number, keyId: number, userId: number | null, now: number): Promise<boolean> {
    let query = this.db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('id', '=', keyId)
      .where('account_id', '=', workspaceId)
      .where('revoked_at', 'is', null);
    if (userId !== null) query = query.where('user_id', '=', userId);
    return Number((await query.executeTakeFirst()).numUpdatedRows) > 0;
  }

  async emailOfUser(userId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('users')
      .innerJoin('accounts', 'accounts.id', 'users.id')
      .select('accounts.email')
      .where('users.id', '=', userId)
      .executeTakeFirst();
    return row?.email ?? null;
  }
}

/**
 * Holds the workspace's row for the rest of the transaction (a no-op write takes its lock on both
 * engines), so two owners demoting each other at once cannot leave it without one.
 */
async function holdMembers(
  trx: Kysely<Database>,
  workspaceId: number,
  userId: number,
): Promise<{ role: Role; owners: number } | null> {
  await trx
    .updateTable('accounts')
    .set({ id: sql`id` })
    .where('id', '=', workspaceId)
    .execute();
  const rows = await trx
    .selectFrom('memberships')
    .select(['user_id', 'role'])
    .where('workspace_id', '=', workspaceId)
    .execute();
  const member = rows.find((r) => r.user_id === userId);
  if (!member) return null;
  return { role: member.role as Role, owners: rows.filter((r) => r.role === 'owner').length };
}
