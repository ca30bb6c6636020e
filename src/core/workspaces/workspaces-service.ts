import type { ApiKey } from '../accounts/account.ts';
import type { AccountStore } from '../accounts/account-store.ts';
import { checkEmail, checkKeyName } from '../accounts/account-rules.ts';
import { generateApiKey } from '../accounts/api-key.ts';
import { normaliseEmail } from '../accounts/email.ts';
import type { Clock } from '../shared/clock.ts';
import {
  FieldErrorBag,
  ForbiddenError,
  GoneError,
  NotFoundError,
  TooManyAttemptsError,
  ValidationError,
} from '../shared/errors.ts';
import type { AttemptLimiter } from '../shared/attempt-limiter.ts';
import { digest, randomToken } from '../shared/secrets.ts';
import type { Mailer } from '../mail/mailer.ts';
import { invitationMail, invitationPageUrl } from './invitation-mail.ts';
import { missingFor, type Action, type Grant, type Role } from './policy.ts';
import type {
  Actor,
  Invitation,
  Member,
  Standing,
  Workspace,
  WorkspaceOfUser,
  WorkspaceSettings,
} from './workspace.ts';
import { checkExpiry, checkRole, checkScopes, checkSettings, type SettingsInput } from './workspace-rules.ts';
import type { MembershipChange, WorkspaceStore } from './workspace-store.ts';
import { changesOf } from '../audit/audit-changes.ts';
import type { AuditActor, AuditChanges } from '../audit/audit-entry.ts';
import type { AuditLog } from '../audit/audit-store.ts';
import { noUnitOfWork, type UnitOfWork } from '../shared/unit-of-work.ts';

/** An invitation is good for a week. */
const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface WorkspacesServiceDeps {
  /** Deletes the workspace and all it holds, telling the redirect (the accounts service does). */
  deleteWorkspace(workspaceId: number): Promise<void>;
  /** Mails invitations when a mail server is set up (SMTP_URL); null: the inviter copies the link. */
  mail?: { mailer: Mailer; appUrl: string; onError: (error: unknown) => void } | null;
  /** A change and its audit entry commit together (docs/adr/0071); absent: the ports as they are, no entries. */
  unitOfWork?: UnitOfWork<WorkspaceChangePorts>;
  /**
   * Told after people's memberships ended or changed (left, removed, a new role, the workspace
   * deleted), so what they hold open there (the live stream) is judged again at once (docs/adr/0058).
   */
  membershipsChanged?: (userIds: readonly number[]) => void;
  /** Invitations per inviter and per workspace in a window (INVITE_LIMIT_*), shared through Redis; absent: not limited. */
  invitationLimits?: { perInviter?: AttemptLimiter | undefined; perWorkspace?: AttemptLimiter | undefined };
}

/** The limiters' names; their counts and window are the operator's (config). */
export const INVITATION_LIMITERS = {
  perInviter: 'invitations-inviter',
  perWorkspace: 'invitations-workspace',
} as const;

const TOO_MANY_INVITATIONS = {
  perInviter: 'You have sent too many invitations for now: try again later.',
  perWorkspace: 'This workspace has sent too many invitations for now: try again later.',
} as const;

/** An invitation just made: its token is in this answer only; `mailed` tells whether its mail left. */
export interface MadeInvitation {
  invitation: Invitation;
  token: string;
  mailed: boolean;
}

/** What a change to a workspace, its members, invitations or keys writes in its unit of work. */
export interface WorkspaceChangePorts {
  store: WorkspaceStore;
  accounts: AccountStore;
  audit?: AuditLog | undefined;
}

/** Who acts, for the audit log: a key is the API's door, no key the web app's session. */
function auditActorOf(actor: Actor): AuditActor {
  return { userId: actor.userId, keyId: actor.keyId, via: actor.via ?? (actor.keyId === null ? 'web' : 'api') };
}

export interface KeyInput {
  name: string;
  scopes?: readonly unknown[] | null | undefined;
  expiresAt?: number | null | undefined;
}

/** One workspace of a person and their keys there (null: the policy refuses them their keys now). */
export interface PersonKeys {
  workspace: WorkspaceOfUser;
  keys: WorkspaceKey[] | null;
}

export interface WorkspaceKey {
  key: ApiKey;
  userName: string;
  userEmail: string;
}

/** Turns the policy's verdict into the closed set of errors. */
export function authorize(grant: Grant, action: Action): void {
  const missing = missingFor(grant, action);
  if (missing === null) return;
  if ('scope' in missing) throw new ForbiddenError(`This key lacks the scope ${missing.scope}.`);
  if ('twoFactor' in missing) throw new ForbiddenError(TWO_FACTOR_REQUIRED);
  throw new ForbiddenError(`This needs the role ${missing.role} or above in the workspace.`);
}

/** The refusal of a member without two-factor in a workspace that requires it. */
const TWO_FACTOR_REQUIRED = 'This workspace requires two-factor sign-in: turn it on at /account/security first.';

function lastOwner(): ValidationError {
  return ValidationError.of(
    'role',
    'The last owner of a workspace cannot leave it or change role; make another owner first.',
  );
}

function settled(change: MembershipChange): void {
  if (change === 'last_owner') throw lastOwner();
  if (change === 'not_found') throw new NotFoundError('member');
}

export class WorkspacesService {
  private readonly unit: UnitOfWork<WorkspaceChangePorts>;

  constructor(
    private readonly store: WorkspaceStore,
    private readonly accounts: AccountStore,
    private readonly clock: Clock,
    private readonly deps: WorkspacesServiceDeps,
  ) {
    this.unit = deps.unitOfWork ?? noUnitOfWork<WorkspaceChangePorts>({ store, accounts });
  }

  /** One entry of the workspace's audit log, in the change's unit. */
  private async audit(
    tx: WorkspaceChangePorts,
    workspaceId: number,
    actor: Actor,
    action: string,
    target: { type: string; id: number },
    changes: AuditChanges,
  ): Promise<void> {
    await tx.audit?.record([
      { workspaceId, actor: auditActorOf(actor), action, target, changes, at: this.clock.now() },
    ]);
  }

  /** The member's role and two-factor standing now (read per request, never cached); null when not (or no longer) a member. */
  standingOf(workspaceId: number, userId: number): Promise<Standing | null> {
    return this.store.standingOf(workspaceId, userId);
  }

  /** A workspace the actor is not a member of does not exist for them; one they may see but not do this in is a 403. */
  private async access(actor: Actor, workspaceId: number, action: Action): Promise<Role> {
    return (await this.standing(actor, workspaceId, action)).role;
  }

  private async standing(actor: Actor, workspaceId: number, action: Action): Promise<Standing> {
    // A key whose user left its workspace does nothing anywhere; a key with scopes is a
    // delegation for its own workspace only (an unscoped key stands for its user in each).
    if (actor.home.role === null)
      throw new ForbiddenError('This key belongs to a workspace its user is no longer a member of.');
    if (actor.scopes !== null && workspaceId !== actor.home.workspaceId)
      throw new ForbiddenError('A key with scopes acts only in its own workspace.');
    const standing = await this.store.standingOf(workspaceId, actor.userId);
    if (standing === null) throw new NotFoundError('workspace');
    authorize({ role: standing.role, scopes: actor.scopes, twoFactorMissing: standing.twoFactorMissing }, action);
    return standing;
  }

  /** Refuses (403, or 404 for a non-member) what the actor's standing in the workspace does not allow: for callers outside this service (the CLI's import). */
  async authorizeIn(actor: Actor, workspaceId: number, action: Action): Promise<void> {
    await this.access(actor, workspaceId, action);
  }

  /** For the services beside this one that act per workspace of a path (the audit log): the same check, the role it found. */
  require(actor: Actor, workspaceId: number, action: Action): Promise<Role> {
    return this.access(actor, workspaceId, action);
  }

  private allows(actor: Actor, role: Role, action: Action): boolean {
    return missingFor({ role, scopes: actor.scopes }, action) === null;
  }

  list(actor: Actor): Promise<WorkspaceOfUser[]> {
    return this.store.listOfUser(actor.userId);
  }

  /** `from`: the workspace the actor's key acts in, whose role bounds making another. */
  async create(actor: Actor, from: number, input: SettingsInput): Promise<WorkspaceOfUser> {
    await this.access(actor, from, 'workspace.create');
    const current = await this.store.find(actor.userId);
    const bag = new FieldErrorBag();
    if (input.name === undefined) bag.add('name', 'The name field is required.');
    const settings = checkSettings(
      input,
      { name: '', requireTwoFactor: false, timezone: current?.timezone ?? 'UTC' },
      bag,
    );
    bag.throwIfAny();
    const made = await this.unit(async (tx) => {
      const made = await tx.store.create(actor.userId, settings, this.clock.now());
      await this.audit(
        tx,
        made.id,
        actor,
        'workspace.created',
        { type: 'workspace', id: made.id },
        changesOf(null, settings),
      );
      return made;
    });
    return { ...made, role: 'owner' };
  }

  async read(actor: Actor, workspaceId: number): Promise<WorkspaceOfUser> {
    const role = await this.access(actor, workspaceId, 'workspace.read');
    return { ...(await this.found(workspaceId)), role };
  }

  async update(actor: Actor, workspaceId: number, input: SettingsInput): Promise<WorkspaceOfUser> {
    const { role, twoFactor } = await this.standing(actor, workspaceId, 'workspace.settings');
    const bag = new FieldErrorBag();
    const before = await this.found(workspaceId);
    const settings = checkSettings(input, before, bag);
    // An owner without two-factor would lock themselves out of the workspace they just changed.
    if (settings.requireTwoFactor && !before.requireTwoFactor && !twoFactor) {
      bag.add(
        'require_2fa',
        'Turn on two-factor sign-in for yourself (at /account/security) before requiring it of everyone.',
      );
    }
    bag.throwIfAny();
    const was: WorkspaceSettings = {
      name: before.name,
      requireTwoFactor: before.requireTwoFactor,
      timezone: before.timezone,
    };
    const updated = await this.unit(async (tx) => {
      const updated = await tx.store.update(workspaceId, settings);
      const changes = changesOf(was, settings);
      if (Object.keys(changes).length > 0)
        await this.audit(tx, workspaceId, actor, 'workspace.updated', { type: 'workspace', id: workspaceId }, changes);
      return updated;
    });
    return { ...updated, role };
  }

  async delete(actor: Actor, workspaceId: number): Promise<void> {
    await this.access(actor, workspaceId, 'workspace.delete');
    const workspace = await this.found(workspaceId);
    if (workspace.personal)
      throw ValidationError.of('personal', 'A personal workspace cannot be deleted (delete the account instead).');
    const members = await this.store.members(workspaceId);
    await this.deps.deleteWorkspace(workspaceId);
    this.deps.membershipsChanged?.(members.map((m) => m.userId));
  }

  async members(actor: Actor, workspaceId: number): Promise<Member[]> {
    await this.access(actor, workspaceId, 'members.read');
    return this.store.members(workspaceId);
  }

  async setRole(actor: Actor, workspaceId: number, userId: number, role: unknown): Promise<Member> {
    const bag = new FieldErrorBag();
    const next = checkRole(role, bag);
    await this.access(actor, workspaceId, 'members.manage');
    bag.throwIfAny();
    const target = await this.member(workspaceId, userId);
    if (target.role === 'owner' || next === 'owner') await this.access(actor, workspaceId, 'owners.manage');
    await this.unit(async (tx) => {
      settled(await tx.store.setRole(workspaceId, userId, next));
      if (target.role !== next)
        await this.audit(
          tx,
          workspaceId,
          actor,
          'member.role_changed',
          { type: 'member', id: userId },
          { role: [target.role, next] },
        );
    });
    if (target.role !== next) this.deps.membershipsChanged?.([userId]);
    return { ...target, role: next };
  }

  /** One's own id: leaving (any member may); another's: removing, as their role allows. */
  async removeMember(actor: Actor, workspaceId: number, userId: number): Promise<void> {
    if (userId === actor.userId) {
      await this.access(actor, workspaceId, 'workspace.read');
    } else {
      await this.access(actor, workspaceId, 'members.manage');
    }
    const target = await this.member(workspaceId, userId);
    if (userId !== actor.userId && target.role === 'owner') await this.access(actor, workspaceId, 'owners.manage');
    await this.unit(async (tx) => {
      settled(await tx.store.removeMember(workspaceId, userId));
      await this.audit(
        tx,
        workspaceId,
        actor,
        'member.removed',
        { type: 'member', id: userId },
        { role: [target.role, null] },
      );
    });
    this.deps.membershipsChanged?.([userId]);
  }

  /** The token is in this answer and nowhere else: only its digest is kept. */
  async invite(actor: Actor, workspaceId: number, input: { email: string; role: unknown }): Promise<MadeInvitation> {
    const bag = new FieldErrorBag();
    const email = normaliseEmail(input.email);
    checkEmail(email, bag);
    const role = checkRole(input.role, bag);
    await this.access(actor, workspaceId, 'invitations.manage');
    bag.throwIfAny();
    await this.notPersonal(workspaceId);
    if (role === 'owner') await this.access(actor, workspaceId, 'owners.manage');
    await this.countInvitation(actor.userId, workspaceId);
    const token = randomToken(32);
    const now = this.clock.now();
    const invitation = await this.unit(async (tx) => {
      const invitation = await tx.store.insertInvitation(
        workspaceId,
        { email, role, tokenHash: digest(token), invitedBy: actor.userId, expiresAt: now + INVITATION_TTL_MS },
        now,
      );
      await this.audit(
        tx,
        workspaceId,
        actor,
        'member.invited',
        { type: 'invitation', id: invitation.id },
        { email: [null, email], role: [null, role] },
      );
      return invitation;
    });
    return { invitation, token, mailed: await this.mailInvitation(actor, invitation, token) };
  }

  /** Each invitation counts against its inviter and its workspace: a mail to any address is not free to repeat. */
  private async countInvitation(userId: number, workspaceId: number): Promise<void> {
    const limits = this.deps.invitationLimits;
    for (const [which, key] of [
      ['perInviter', String(userId)],
      ['perWorkspace', String(workspaceId)],
    ] as const) {
      const attempt = await limits?.[which]?.consume(key);
      if (attempt && !attempt.allowed)
        throw new TooManyAttemptsError(attempt.retryAfterSeconds, TOO_MANY_INVITATIONS[which]);
    }
  }

  /**
   * Sent once the invitation is stored (its own committed write): a mail that fails is told to
   * the log and in the answer, and the invitation stands (the inviter still has its link).
   */
  private async mailInvitation(actor: Actor, invitation: Invitation, token: string): Promise<boolean> {
    const mail = this.deps.mail;
    if (!mail) return false;
    try {
      const workspace = await this.found(invitation.workspaceId);
      const inviter = await this.accounts.findById(actor.userId);
      const name = inviter?.name || inviter?.email || 'A colleague';
      await mail.mailer.send(invitationMail(invitation, workspace, name, invitationPageUrl(mail.appUrl, token)));
      return true;
    } catch (error) {
      mail.onError(error);
      return false;
    }
  }

  async invitations(actor: Actor, workspaceId: number): Promise<Invitation[]> {
    await this.access(actor, workspaceId, 'invitations.manage');
    return this.store.pendingInvitations(workspaceId);
  }

  async revokeInvitation(actor: Actor, workspaceId: number, invitationId: number): Promise<void> {
    await this.access(actor, workspaceId, 'invitations.manage');
    await this.unit(async (tx) => {
      if (!(await tx.store.revokeInvitation(workspaceId, invitationId, this.clock.now())))
        throw new NotFoundError('invitation');
      await this.audit(tx, workspaceId, actor, 'invitation.revoked', { type: 'invitation', id: invitationId }, {});
    });
  }

  /** What an invitation offers, for its page (opened signed out too). Unknown: 404; used, revoked or expired: 410. */
  async describeInvitation(token: string): Promise<{ invitation: Invitation; workspace: Workspace }> {
    const invitation = /^[A-Za-z0-9_-]{43}$/.test(token) ? await this.store.findInvitationByHash(digest(token)) : null;
    if (!invitation) throw new NotFoundError('invitation');
    if (invitation.acceptedAt !== null || invitation.revokedAt !== null || invitation.expiresAt <= this.clock.now())
      throw new GoneError('invitation');
    return { invitation, workspace: await this.found(invitation.workspaceId) };
  }

  /** Unknown: 404; used, revoked or expired: 410; meant for another email: 403. */
  async accept(actor: Actor, token: string): Promise<{ workspaceId: number; role: Role }> {
    const { invitation } = await this.describeInvitation(token);
    const now = this.clock.now();
    const email = await this.store.emailOfUser(actor.userId);
    if (email === null || normaliseEmail(email) !== invitation.email)
      throw new ForbiddenError('This invitation was sent to another email address.');
    const role = await this.unit(async (tx) => {
      const role = await tx.store.acceptInvitation(invitation.id, actor.userId, now);
      if (role === null) throw new GoneError('invitation');
      await this.audit(
        tx,
        invitation.workspaceId,
        actor,
        'invitation.accepted',
        { type: 'invitation', id: invitation.id },
        { role: [null, role] },
      );
      return role;
    });
    return { workspaceId: invitation.workspaceId, role };
  }

  /** A key of the actor in the workspace; its plaintext is in this answer and nowhere else. */
  async createKey(actor: Actor, workspaceId: number, input: KeyInput): Promise<{ key: WorkspaceKey; apiKey: string }> {
    const now = this.clock.now();
    const bag = new FieldErrorBag();
    const name = checkKeyName(input.name, bag);
    const scopes = checkScopes(input.scopes, bag);
    const expiresAt = checkExpiry(input.expiresAt, now, bag);
    await this.access(actor, workspaceId, 'keys.own');
    bag.throwIfAny();
    if (actor.scopes !== null && (scopes === null || scopes.some((s) => !actor.scopes!.includes(s)))) {
      throw new ForbiddenError('A key with scopes can only make keys with some of its own scopes.');
    }
    const generated = generateApiKey(name);
    const key = await this.unit(async (tx) => {
      const key = await tx.accounts.insertKey(
        workspaceId,
        { ...generated.stored, userId: actor.userId, scopes, expiresAt },
        now,
      );
      // The key's value never enters the log: its name, scopes and expiry do.
      await this.audit(
        tx,
        workspaceId,
        actor,
        'api_key.created',
        { type: 'api_key', id: key.id },
        changesOf(null, { name: key.name, prefix: key.prefix, scopes, expiresAt }),
      );
      return key;
    });
    const person = await this.accounts.findById(actor.userId);
    return { key: { key, userName: person?.name ?? '', userEmail: person?.email ?? '' }, apiKey: generated.plaintext };
  }

  /**
   * The person's own keys in each of their workspaces (the account's key page); null where the
   * policy keeps them from their keys now (a workspace requiring two-factor they have not turned on).
   */
  async keysOfPerson(actor: Actor): Promise<PersonKeys[]> {
    const workspaces = await this.store.listOfUser(actor.userId);
    return Promise.all(
      workspaces.map(async (workspace) => {
        try {
          await this.access(actor, workspace.id, 'keys.own');
        } catch (error) {
          if (error instanceof ForbiddenError) return { workspace, keys: null };
          throw error;
        }
        return { workspace, keys: await this.store.keys(workspace.id, actor.userId) };
      }),
    );
  }

  /** One's own keys; an admin's view holds every key of the workspace. */
  async keys(actor: Actor, workspaceId: number): Promise<WorkspaceKey[]> {
    const role = await this.access(actor, workspaceId, 'keys.own');
    return this.store.keys(workspaceId, this.allows(actor, role, 'keys.all') ? null : actor.userId);
  }

  async revokeKey(actor: Actor, workspaceId: number, keyId: number): Promise<void> {
    const role = await this.access(actor, workspaceId, 'keys.own');
    const whose = this.allows(actor, role, 'keys.all') ? null : actor.userId;
    const revoked = await this.unit(async (tx) => {
      const revoked = await tx.store.revokeKey(workspaceId, keyId, whose, this.clock.now());
      if (revoked) await this.audit(tx, workspaceId, actor, 'api_key.revoked', { type: 'api_key', id: keyId }, {});
      return revoked;
    });
    if (revoked) return;
    // Revoking a visible key twice changes nothing; an invisible one is not found.
    if (!(await this.store.keys(workspaceId, whose)).some((k) => k.key.id === keyId)) throw new NotFoundError('key');
  }

  /** A personal workspace is its person's alone: nobody is invited into it (make a team workspace). */
  private async notPersonal(workspaceId: number): Promise<void> {
    if ((await this.found(workspaceId)).personal) {
      throw ValidationError.of(
        'workspace',
        'A personal workspace has no other members; create a team workspace to invite people.',
      );
    }
  }

  private async found(workspaceId: number): Promise<Workspace> {
    const workspace = await this.store.find(workspaceId);
    if (!workspace) throw new NotFoundError('workspace');
    return workspace;
  }

  private async member(workspaceId: number, userId: number): Promise<Member> {
    const member = (await this.store.members(workspaceId)).find((m) => m.userId === userId);
    if (!member) throw new NotFoundError('member');
    return member;
  }
}
