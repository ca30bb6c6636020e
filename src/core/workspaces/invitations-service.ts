import type { AccountStore } from '../accounts/account-store.ts';
import { checkEmail } from '../accounts/account-rules.ts';
import { normaliseEmail } from '../accounts/email.ts';
import type { Clock } from '../shared/clock.ts';
import type { AttemptLimiter } from '../shared/attempt-limiter.ts';
import {
  FieldErrorBag,
  ForbiddenError,
  GoneError,
  NotFoundError,
  TooManyAttemptsError,
  ValidationError,
} from '../shared/errors.ts';
import { digest, randomToken } from '../shared/secrets.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { AuditChanges } from '../audit/audit-entry.ts';
import { unaudited, type AuditedUnit } from '../audit/record-change.ts';
import { invitationMail, invitationPageUrl } from './invitation-mail.ts';
import type { Role } from './policy.ts';
import type { Actor, Invitation, Workspace } from './workspace.ts';
import type { WorkspaceAccess } from './workspace-access.ts';
import { auditIn } from './workspace-audit.ts';
import { checkRole } from './workspace-rules.ts';
import type { InvitationStore } from './workspace-store.ts';

/** An invitation is good for a week. */
const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The limiters' names; their counts and window are the operator's (config). */
export const INVITATION_LIMITERS = {
  perInviter: 'invitations-inviter',
  perWorkspace: 'invitations-workspace',
} as const;

const TOO_MANY_INVITATIONS = {
  perInviter: 'You have sent too many invitations for now: try again later.',
  perWorkspace: 'This workspace has sent too many invitations for now: try again later.',
} as const;

export interface InvitationsServiceDeps {
  store: InvitationStore;
  access: WorkspaceAccess;
  /** The inviter's name, for the mail. */
  accounts: Pick<AccountStore, 'findById'>;
  clock: Clock;
  /** A change and its audit entry commit together (docs/design/teams.md); absent: the store as it is, no entries. */
  unitOfWork?: AuditedUnit<InvitationStore>;
  /** Mails invitations when a mail server is set up (SMTP_URL); null: the inviter copies the link. */
  mail?: { mailer: Mailer; appUrl: string; onError: (error: unknown) => void } | null;
  /** Invitations per inviter and per workspace in a window (INVITE_LIMIT_*), shared through Redis; absent: not limited. */
  invitationLimits?: { perInviter?: AttemptLimiter | undefined; perWorkspace?: AttemptLimiter | undefined };
}

/** An invitation just made: its token is in this answer only; `mailed` tells whether its mail left. */
export interface MadeInvitation {
  invitation: Invitation;
  token: string;
  mailed: boolean;
}

/** Invitations into a team workspace: stored as the digest of their token, good once, for a week. */
export class InvitationsService {
  private readonly unit: AuditedUnit<InvitationStore>;

  constructor(private readonly deps: InvitationsServiceDeps) {
    this.unit = deps.unitOfWork ?? unaudited<InvitationStore>(deps.store);
  }

  /** The token is in this answer and nowhere else: only its digest is kept. */
  async invite(actor: Actor, workspaceId: number, input: { email: string; role: unknown }): Promise<MadeInvitation> {
    const { access } = this.deps;
    const bag = new FieldErrorBag();
    const email = normaliseEmail(input.email);
    checkEmail(email, bag);
    const role = checkRole(input.role, bag);
    await access.role(actor, workspaceId, 'invitations.manage');
    bag.throwIfAny();
    await this.notPersonal(workspaceId);
    if (role === 'owner') await access.role(actor, workspaceId, 'owners.manage');
    await this.countInvitation(actor.userId, workspaceId);
    const token = randomToken(32);
    const now = this.deps.clock.now();
    const invitation = await this.unit(async (tx) => {
      const invitation = await tx.store.insertInvitation(
        workspaceId,
        { email, role, tokenHash: digest(token), invitedBy: actor.userId, expiresAt: now + INVITATION_TTL_MS },
        now,
      );
      const target = { type: 'invitation', id: invitation.id };
      const changes: AuditChanges = { email: [null, email], role: [null, role] };
      await auditIn(tx, this.deps.clock.now(), { workspaceId, actor, action: 'member.invited', target }, changes);
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
      const workspace = await this.deps.access.found(invitation.workspaceId);
      const inviter = await this.deps.accounts.findById(actor.userId);
      const name = inviter?.name || inviter?.email || 'A colleague';
      await mail.mailer.send(invitationMail(invitation, workspace, name, invitationPageUrl(mail.appUrl, token)));
      return true;
    } catch (error) {
      mail.onError(error);
      return false;
    }
  }

  async list(actor: Actor, workspaceId: number): Promise<Invitation[]> {
    await this.deps.access.role(actor, workspaceId, 'invitations.manage');
    return this.deps.store.pendingInvitations(workspaceId);
  }

  async revoke(actor: Actor, workspaceId: number, invitationId: number): Promise<void> {
    await this.deps.access.role(actor, workspaceId, 'invitations.manage');
    await this.unit(async (tx) => {
      if (!(await tx.store.revokeInvitation(workspaceId, invitationId, this.deps.clock.now())))
        throw new NotFoundError('invitation');
      const target = { type: 'invitation', id: invitationId };
      await auditIn(tx, this.deps.clock.now(), { workspaceId, actor, action: 'invitation.revoked', target }, {});
    });
  }

  /** What an invitation offers, for its page (opened signed out too). Unknown: 404; used, revoked or expired: 410. */
  async describe(token: string): Promise<{ invitation: Invitation; workspace: Workspace }> {
    const { store, clock, access } = this.deps;
    const invitation = /^[A-Za-z0-9_-]{43}$/.test(token) ? await store.findInvitationByHash(digest(token)) : null;
    if (!invitation) throw new NotFoundError('invitation');
    if (invitation.acceptedAt !== null || invitation.revokedAt !== null || invitation.expiresAt <= clock.now())
      throw new GoneError('invitation');
    return { invitation, workspace: await access.found(invitation.workspaceId) };
  }

  /** Unknown: 404; used, revoked or expired: 410; meant for another email: 403. */
  async accept(actor: Actor, token: string): Promise<{ workspaceId: number; role: Role }> {
    const { invitation } = await this.describe(token);
    const now = this.deps.clock.now();
    const email = await this.deps.store.emailOfUser(actor.userId);
    if (email === null || normaliseEmail(email) !== invitation.email)
      throw new ForbiddenError('This invitation was sent to another email address.');
    const role = await this.unit(async (tx) => {
      const role = await tx.store.acceptInvitation(invitation.id, actor.userId, now);
      if (role === null) throw new GoneError('invitation');
      const change = {
        workspaceId: invitation.workspaceId,
        actor,
        action: 'invitation.accepted',
        target: { type: 'invitation', id: invitation.id },
      };
      await auditIn(tx, this.deps.clock.now(), change, { role: [null, role] });
      return role;
    });
    return { workspaceId: invitation.workspaceId, role };
  }

  /** A personal workspace is its person's alone: nobody is invited into it (make a team workspace). */
  private async notPersonal(workspaceId: number): Promise<void> {
    if ((await this.deps.access.found(workspaceId)).personal) {
      throw ValidationError.of(
        'workspace',
        'A personal workspace has no other members; create a team workspace to invite people.',
      );
    }
  }
}
