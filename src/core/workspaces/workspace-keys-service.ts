import type { ApiKey } from '../accounts/account.ts';
import type { AccountStore } from '../accounts/account-store.ts';
import { checkKeyName } from '../accounts/account-rules.ts';
import { generateApiKey } from '../accounts/api-key.ts';
import type { Clock } from '../shared/clock.ts';
import { FieldErrorBag, ForbiddenError, NotFoundError } from '../shared/errors.ts';
import { noUnitOfWork, type UnitOfWork } from '../shared/unit-of-work.ts';
import { changesOf } from '../audit/audit-changes.ts';
import type { AuditLog } from '../audit/audit-store.ts';
import type { Actor, WorkspaceOfUser } from './workspace.ts';
import type { WorkspaceAccess } from './workspace-access.ts';
import { auditIn } from './workspace-audit.ts';
import { checkExpiry, checkScopes } from './workspace-rules.ts';
import type { WorkspaceKeyStore, WorkspaceStore } from './workspace-store.ts';

/** What a key's change writes in its unit: the key is made through the account store, revoked through the workspace's. */
export interface KeyChangePorts {
  store: WorkspaceKeyStore;
  accounts: Pick<AccountStore, 'insertKey'>;
  audit?: AuditLog | undefined;
}

export interface WorkspaceKeysServiceDeps {
  store: WorkspaceKeyStore & Pick<WorkspaceStore, 'listOfUser'>;
  access: WorkspaceAccess;
  accounts: Pick<AccountStore, 'insertKey' | 'findById'>;
  clock: Clock;
  /** A change and its audit entry commit together (docs/design/teams.md); absent: the stores as they are, no entries. */
  unitOfWork?: UnitOfWork<KeyChangePorts>;
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

/** A workspace's API keys: each a person's, with optional scopes and expiry, shown once when made. */
export class WorkspaceKeysService {
  private readonly unit: UnitOfWork<KeyChangePorts>;

  constructor(private readonly deps: WorkspaceKeysServiceDeps) {
    this.unit = deps.unitOfWork ?? noUnitOfWork<KeyChangePorts>({ store: deps.store, accounts: deps.accounts });
  }

  /** A key of the actor in the workspace; its plaintext is in this answer and nowhere else. */
  async create(actor: Actor, workspaceId: number, input: KeyInput): Promise<{ key: WorkspaceKey; apiKey: string }> {
    const now = this.deps.clock.now();
    const bag = new FieldErrorBag();
    const name = checkKeyName(input.name, bag);
    const scopes = checkScopes(input.scopes, bag);
    const expiresAt = checkExpiry(input.expiresAt, now, bag);
    await this.deps.access.role(actor, workspaceId, 'keys.own');
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
      const change = { workspaceId, actor, action: 'api_key.created', target: { type: 'api_key', id: key.id } };
      const changes = changesOf(null, { name: key.name, prefix: key.prefix, scopes, expiresAt });
      await auditIn(tx, this.deps.clock.now(), change, changes);
      return key;
    });
    const person = await this.deps.accounts.findById(actor.userId);
    return { key: { key, userName: person?.name ?? '', userEmail: person?.email ?? '' }, apiKey: generated.plaintext };
  }

  /**
   * The person's own keys in each of their workspaces (the account's key page); null where the
   * policy keeps them from their keys now (a workspace requiring two-factor they have not turned on).
   */
  async ofPerson(actor: Actor): Promise<PersonKeys[]> {
    const workspaces = await this.deps.store.listOfUser(actor.userId);
    return Promise.all(
      workspaces.map(async (workspace) => {
        try {
          await this.deps.access.role(actor, workspace.id, 'keys.own');
        } catch (error) {
          if (error instanceof ForbiddenError) return { workspace, keys: null };
          throw error;
        }
        return { workspace, keys: await this.deps.store.keys(workspace.id, actor.userId) };
      }),
    );
  }

  /** One's own keys; an admin's view holds every key of the workspace. */
  async list(actor: Actor, workspaceId: number): Promise<WorkspaceKey[]> {
    const { access, store } = this.deps;
    const role = await access.role(actor, workspaceId, 'keys.own');
    return store.keys(workspaceId, access.allows(actor, role, 'keys.all') ? null : actor.userId);
  }

  async revoke(actor: Actor, workspaceId: number, keyId: number): Promise<void> {
    const { access, store } = this.deps;
    const role = await access.role(actor, workspaceId, 'keys.own');
    const whose = access.allows(actor, role, 'keys.all') ? null : actor.userId;
    const revoked = await this.unit(async (tx) => {
      const revoked = await tx.store.revokeKey(workspaceId, keyId, whose, this.deps.clock.now());
      const change = { workspaceId, actor, action: 'api_key.revoked', target: { type: 'api_key', id: keyId } };
      if (revoked) await auditIn(tx, this.deps.clock.now(), change, {});
      return revoked;
    });
    if (revoked) return;
    // Revoking a visible key twice changes nothing; an invisible one is not found.
    if (!(await store.keys(workspaceId, whose)).some((k) => k.key.id === keyId)) throw new NotFoundError('key');
  }
}
