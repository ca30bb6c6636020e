import type { Clock } from '../shared/clock.ts';
import { FieldErrorBag, ValidationError } from '../shared/errors.ts';
import { changesOf } from '../audit/audit-changes.ts';
import { unaudited, type AuditedUnit } from '../audit/record-change.ts';
import type { Action, Role } from './policy.ts';
import type { Actor, Standing, WorkspaceOfUser, WorkspaceSettings } from './workspace.ts';
import type { WorkspaceAccess } from './workspace-access.ts';
import { auditIn } from './workspace-audit.ts';
import { checkSettings, type SettingsInput } from './workspace-rules.ts';
import type { MemberStore, WorkspaceStore } from './workspace-store.ts';

export interface WorkspacesServiceDeps {
  store: WorkspaceStore & Pick<MemberStore, 'members'>;
  access: WorkspaceAccess;
  clock: Clock;
  /** Deletes the workspace and all it holds, telling the redirect (the accounts service does). */
  deleteWorkspace(workspaceId: number): Promise<void>;
  /** A change and its audit entry commit together (docs/design/teams.md); absent: the store as it is, no entries. */
  unitOfWork?: AuditedUnit<WorkspaceStore>;
  /**
   * Told after people's memberships ended (the workspace deleted), so what they hold open there
   * (the live stream) is judged again at once (docs/design/teams.md).
   */
  membershipsChanged?: (userIds: readonly number[]) => void;
}

/** Workspaces themselves: listing, making, reading, their settings and deleting; and the access check for services beside it. */
export class WorkspacesService {
  private readonly unit: AuditedUnit<WorkspaceStore>;

  constructor(private readonly deps: WorkspacesServiceDeps) {
    this.unit = deps.unitOfWork ?? unaudited<WorkspaceStore>(deps.store);
  }

  /** The member's role and two-factor standing now (read per request, never cached); null when not (or no longer) a member. */
  standingOf(workspaceId: number, userId: number): Promise<Standing | null> {
    return this.deps.store.standingOf(workspaceId, userId);
  }

  /** Refuses (403, or 404 for a non-member) what the actor's standing in the workspace does not allow: for callers outside this service (the CLI's import). */
  async authorizeIn(actor: Actor, workspaceId: number, action: Action): Promise<void> {
    await this.deps.access.role(actor, workspaceId, action);
  }

  /** For the services beside this one that act per workspace of a path (the audit log): the same check, the role it found. */
  require(actor: Actor, workspaceId: number, action: Action): Promise<Role> {
    return this.deps.access.role(actor, workspaceId, action);
  }

  list(actor: Actor): Promise<WorkspaceOfUser[]> {
    return this.deps.store.listOfUser(actor.userId);
  }

  /** `from`: the workspace the actor's key acts in, whose role bounds making another. */
  async create(actor: Actor, from: number, input: SettingsInput): Promise<WorkspaceOfUser> {
    await this.deps.access.role(actor, from, 'workspace.create');
    const current = await this.deps.store.find(actor.userId);
    const bag = new FieldErrorBag();
    if (input.name === undefined) bag.add('name', 'The name field is required.');
    const settings = checkSettings(
      input,
      { name: '', requireTwoFactor: false, timezone: current?.timezone ?? 'UTC' },
      bag,
    );
    bag.throwIfAny();
    const made = await this.unit(async (tx) => {
      const made = await tx.store.create(actor.userId, settings, this.deps.clock.now());
      const change = {
        workspaceId: made.id,
        actor,
        action: 'workspace.created',
        target: { type: 'workspace', id: made.id },
      };
      await auditIn(tx, this.deps.clock.now(), change, changesOf(null, settings));
      return made;
    });
    return { ...made, role: 'owner' };
  }

  async read(actor: Actor, workspaceId: number): Promise<WorkspaceOfUser> {
    const role = await this.deps.access.role(actor, workspaceId, 'workspace.read');
    return { ...(await this.deps.access.found(workspaceId)), role };
  }

  async update(actor: Actor, workspaceId: number, input: SettingsInput): Promise<WorkspaceOfUser> {
    const { role, twoFactor } = await this.deps.access.standing(actor, workspaceId, 'workspace.settings');
    const bag = new FieldErrorBag();
    const before = await this.deps.access.found(workspaceId);
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
      const change = {
        workspaceId,
        actor,
        action: 'workspace.updated',
        target: { type: 'workspace', id: workspaceId },
      };
      if (Object.keys(changes).length > 0) await auditIn(tx, this.deps.clock.now(), change, changes);
      return updated;
    });
    return { ...updated, role };
  }

  async delete(actor: Actor, workspaceId: number): Promise<void> {
    await this.deps.access.role(actor, workspaceId, 'workspace.delete');
    const workspace = await this.deps.access.found(workspaceId);
    if (workspace.personal)
      throw ValidationError.of('personal', 'A personal workspace cannot be deleted (delete the account instead).');
    const members = await this.deps.store.members(workspaceId);
    await this.deps.deleteWorkspace(workspaceId);
    this.deps.membershipsChanged?.(members.map((m) => m.userId));
  }
}
