import type { Clock } from '../shared/clock.ts';
import { FieldErrorBag, NotFoundError, ValidationError } from '../shared/errors.ts';
import { unaudited, type AuditedUnit } from '../audit/record-change.ts';
import type { Actor, Member } from './workspace.ts';
import type { WorkspaceAccess } from './workspace-access.ts';
import { auditIn } from './workspace-audit.ts';
import { checkRole } from './workspace-rules.ts';
import type { MemberStore, MembershipChange } from './workspace-store.ts';

export interface MembersServiceDeps {
  store: MemberStore;
  access: WorkspaceAccess;
  clock: Clock;
  /** A change and its audit entry commit together (docs/design/teams.md); absent: the store as it is, no entries. */
  unitOfWork?: AuditedUnit<MemberStore>;
  /**
   * Told after people's memberships ended or changed (left, removed, a new role), so what they
   * hold open there (the live stream) is judged again at once (docs/design/teams.md).
   */
  membershipsChanged?: (userIds: readonly number[]) => void;
}

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

/** A workspace's members: who they are, their roles, leaving and removing; the last owner stays. */
export class MembersService {
  private readonly unit: AuditedUnit<MemberStore>;

  constructor(private readonly deps: MembersServiceDeps) {
    this.unit = deps.unitOfWork ?? unaudited<MemberStore>(deps.store);
  }

  async list(actor: Actor, workspaceId: number): Promise<Member[]> {
    await this.deps.access.role(actor, workspaceId, 'members.read');
    return this.deps.store.members(workspaceId);
  }

  async setRole(actor: Actor, workspaceId: number, userId: number, role: unknown): Promise<Member> {
    const { access } = this.deps;
    const bag = new FieldErrorBag();
    const next = checkRole(role, bag);
    await access.role(actor, workspaceId, 'members.manage');
    bag.throwIfAny();
    const target = await this.member(workspaceId, userId);
    if (target.role === 'owner' || next === 'owner') await access.role(actor, workspaceId, 'owners.manage');
    await this.unit(async (tx) => {
      settled(await tx.store.setRole(workspaceId, userId, next));
      const change = { workspaceId, actor, action: 'member.role_changed', target: { type: 'member', id: userId } };
      if (target.role !== next) await auditIn(tx, this.deps.clock.now(), change, { role: [target.role, next] });
    });
    if (target.role !== next) this.deps.membershipsChanged?.([userId]);
    return { ...target, role: next };
  }

  /** One's own id: leaving (any member may); another's: removing, as their role allows. */
  async remove(actor: Actor, workspaceId: number, userId: number): Promise<void> {
    const { access } = this.deps;
    if (userId === actor.userId) {
      await access.role(actor, workspaceId, 'workspace.read');
    } else {
      await access.role(actor, workspaceId, 'members.manage');
    }
    const target = await this.member(workspaceId, userId);
    if (userId !== actor.userId && target.role === 'owner') await access.role(actor, workspaceId, 'owners.manage');
    await this.unit(async (tx) => {
      settled(await tx.store.removeMember(workspaceId, userId));
      const change = { workspaceId, actor, action: 'member.removed', target: { type: 'member', id: userId } };
      await auditIn(tx, this.deps.clock.now(), change, { role: [target.role, null] });
    });
    this.deps.membershipsChanged?.([userId]);
  }

  private async member(workspaceId: number, userId: number): Promise<Member> {
    const member = (await this.deps.store.members(workspaceId)).find((m) => m.userId === userId);
    if (!member) throw new NotFoundError('member');
    return member;
  }
}
