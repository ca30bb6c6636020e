import { FieldErrorBag, NotFoundError, UnauthenticatedError, ValidationError } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { Clock } from '../shared/clock.ts';
import type { RedirectInvalidation } from '../redirect/redirect-events.ts';
import { checkKeyName, checkProfile, type ProfileInput } from './account-rules.ts';
import type { Account, ApiKey } from './account.ts';
import type { AccountStore } from './account-store.ts';
import { generateApiKey, hashApiKey, looksLikeApiKey } from './api-key.ts';
import { normaliseEmail } from './email.ts';
import { spendSignUpTry, type SignUpLimits } from './sign-up-limits.ts';
import { recordAccountChange } from './account-audit.ts';
import { changesOf } from '../audit/audit-changes.ts';
import type { AuditActor, AuditChanges } from '../audit/audit-entry.ts';
import { unaudited, type AuditedUnit } from '../audit/record-change.ts';
import type { AuditLog } from '../audit/audit-store.ts';

export interface CreateAccountInput {
  email: string;
  name?: string | undefined;
  timezone?: string | undefined;
}

/** What deleting an account must tell the rest of the service. */
export interface AccountsServiceDeps {
  /** The redirect's cache forgets the account's links and domains. */
  invalidation?: RedirectInvalidation;
  /** A deleted link's exact click count (kept outside the database) can go. */
  forgetQuota?: (linkId: number) => Promise<void>;
  /** A key's or profile's change and its audit entry commit together (docs/design/teams.md); absent: no entries. */
  unit?: AuditedUnit<AccountStore>;
  /** The sign-up limits, which an email change on the profile spends too (absent: not limited). */
  signUps?: SignUpLimits;
}

/** A personal key's entry names it by its name and prefix: its value never enters the log. */
const keyFields = (key: ApiKey) => ({ name: key.name, prefix: key.prefix });

/** One entry in the workspace's log (a personal key's workspace shares its person's id). */
async function audit(
  log: AuditLog | undefined,
  entry: {
    workspaceId: number;
    actor: AuditActor;
    action: string;
    target: { type: string; id: number };
    changes: AuditChanges;
    at: number;
  },
): Promise<void> {
  await log?.record([entry]);
}

/** A key's last use is written at most this often: an API request is not a database write. */
export const KEY_TOUCH_EVERY_MS = 60_000;

export class AccountsService {
  private readonly unit: AuditedUnit<AccountStore>;

  constructor(
    private readonly store: AccountStore,
    private readonly clock: Clock,
    private readonly deps: AccountsServiceDeps = {},
  ) {
    this.unit = deps.unit ?? unaudited(store);
  }

  /** Inserts a key of the workspace's own person and its `api_key.created` entry, in one unit. */
  private insertAudited(
    accountId: number,
    generated: ReturnType<typeof generateApiKey>,
    actor: AuditActor,
  ): Promise<ApiKey> {
    const now = this.clock.now();
    return this.unit(async (tx) => {
      const key = await tx.store.insertKey(accountId, generated.stored, now);
      await audit(tx.audit, {
        workspaceId: accountId,
        actor,
        action: 'api_key.created',
        target: { type: 'api_key', id: key.id },
        changes: changesOf(null, keyFields(key)),
        at: now,
      });
      return key;
    });
  }

  /** Revokes a key of the workspace and writes its `api_key.revoked` entry, in one unit; false when it was not live. */
  private revokeAudited(accountId: number, keyId: number, actor: AuditActor): Promise<boolean> {
    const now = this.clock.now();
    return this.unit(async (tx) => {
      const revoked = await tx.store.revokeKey(accountId, keyId, now);
      if (revoked)
        await audit(tx.audit, {
          workspaceId: accountId,
          actor,
          action: 'api_key.revoked',
          target: { type: 'api_key', id: keyId },
          changes: {},
          at: now,
        });
      return revoked;
    });
  }

  async createAccount(input: CreateAccountInput): Promise<{ account: Account; key: ApiKey; apiKey: string }> {
    const bag = new FieldErrorBag();
    const profile = checkProfile(input, bag);
    bag.throwIfAny();
    if (await this.store.findByEmail(profile.email)) throw ValidationError.of('email', messages.taken('email'));
    const generated = generateApiKey('default');
    const { account, key } = await this.store.createWithKey(profile, generated.stored, this.clock.now());
    return { account, key, apiKey: generated.plaintext };
  }

  /** The operator's CLI: a key of the person of `email` in their personal workspace. */
  async createKey(
    email: string,
    name: string | null,
    actor: AuditActor,
  ): Promise<{ account: Account; key: ApiKey; apiKey: string }> {
    const account = await this.requireByEmail(email);
    const generated = generateApiKey(name);
    const key = await this.insertAudited(account.id, generated, actor);
    return { account, key, apiKey: generated.plaintext };
  }

  async listKeys(email: string): Promise<ApiKey[]> {
    return this.store.listKeys((await this.requireByEmail(email)).id);
  }

  async revokeKey(email: string, keyId: number, actor: AuditActor): Promise<void> {
    const account = await this.requireByEmail(email);
    if (!(await this.revokeAudited(account.id, keyId, actor))) throw new NotFoundError('key');
  }

  /** Revokes the key whose plaintext the operator holds; returns its account. */
  async revokeKeyByValue(plaintext: string, actor: AuditActor): Promise<{ account: Account; key: ApiKey }> {
    const found = looksLikeApiKey(plaintext) ? await this.store.findKeyByHash(hashApiKey(plaintext)) : null;
    if (!found || found.key.revokedAt !== null) throw new NotFoundError('key');
    await this.revokeAudited(found.account.id, found.key.id, actor);
    return found;
  }

  /** Resolves a bearer token to its account; any doubt is "unauthenticated". Records the key's use. */
  async authenticate(token: string): Promise<Account> {
    return (await this.authenticateKey(token)).account;
  }

  /**
   * The key's workspace (`account`) and the key itself, whose user's role the caller reads next.
   * Revoked, expired, or of a suspended workspace or user: unauthenticated.
   */
  async authenticateKey(token: string): Promise<{ account: Account; key: ApiKey }> {
    if (!looksLikeApiKey(token)) throw new UnauthenticatedError();
    const found = await this.store.findKeyByHash(hashApiKey(token));
    if (!found || found.key.revokedAt !== null || found.account.suspendedAt !== null) throw new UnauthenticatedError();
    const now = this.clock.now();
    if (found.key.expiresAt !== null && found.key.expiresAt <= now) throw new UnauthenticatedError();
    if (found.key.userId !== found.account.id) {
      const person = await this.store.findById(found.key.userId);
      if (!person || person.suspendedAt !== null) throw new UnauthenticatedError();
    }
    const since = now - KEY_TOUCH_EVERY_MS;
    if (found.key.lastUsedAt === null || found.key.lastUsedAt < since)
      await this.store.touchKey(found.key.id, now, since);
    return found;
  }

  /**
   * The account's name, email and time zone; an email another account holds is refused. A new
   * email from a client (the profile page) takes a try of the sign-up limits first, as a sign-up
   * does: otherwise the profile would ask which emails have an account, and take look-alike
   * addresses, without them (docs/design/teams.md).
   */
  async updateProfile(
    accountId: number,
    input: ProfileInput,
    actor: AuditActor,
    client?: { address: string },
  ): Promise<Account> {
    const before = await this.getAccount(accountId);
    if (client && normaliseEmail(input.email) !== before.email)
      await spendSignUpTry(this.deps.signUps, client.address, input.email);
    const bag = new FieldErrorBag();
    const profile = checkProfile(input, bag);
    bag.throwIfAny();
    const holder = await this.store.findByEmail(profile.email);
    if (holder && holder.id !== accountId) throw ValidationError.of('email', messages.taken('email'));
    const at = this.clock.now();
    return this.unit(async (tx) => {
      const after = await tx.store.updateProfile(accountId, profile);
      const changes = changesOf(profileOf(before), profileOf(after));
      if (Object.keys(changes).length > 0)
        await recordAccountChange(tx.audit, { userId: accountId, actor, action: 'account.updated', changes, at });
      return after;
    });
  }

  /** A new key for a signed-in account; its plaintext is in this answer and nowhere else, ever. */
  async createKeyFor(accountId: number, name: string, actor: AuditActor): Promise<{ key: ApiKey; apiKey: string }> {
    const bag = new FieldErrorBag();
    const checked = checkKeyName(name, bag);
    bag.throwIfAny();
    const generated = generateApiKey(checked);
    const key = await this.insertAudited(accountId, generated, actor);
    return { key, apiKey: generated.plaintext };
  }

  listKeysOf(accountId: number): Promise<ApiKey[]> {
    return this.store.listKeys(accountId);
  }

  /** Another account's key is not found; revoking one of its own twice changes nothing. */
  async revokeKeyOf(accountId: number, keyId: number, actor: AuditActor): Promise<void> {
    if (await this.revokeAudited(accountId, keyId, actor)) return;
    const own = (await this.store.listKeys(accountId)).some((k) => k.id === keyId);
    if (!own) throw new NotFoundError('key');
  }

  /**
   * Deletes the account and everything it owns; the redirect stops serving its links and
   * domains on every instance. The caller has made sure its owner (or an operator) means it.
   */
  async deleteAccount(accountId: number): Promise<void> {
    const capped = await this.store.deleteAccount(accountId);
    if (capped === null) throw new NotFoundError('account');
    this.deps.invalidation?.accountChanged(accountId);
    for (const linkId of capped) await this.deps.forgetQuota?.(linkId);
  }

  async getAccount(id: number): Promise<Account> {
    const account = await this.store.findById(id);
    if (!account) throw new NotFoundError('account');
    return account;
  }

  /** The account of this email (the operator's tools name accounts so); NotFoundError when none. */
  async requireByEmail(email: string): Promise<Account> {
    const account = await this.store.findByEmail(normaliseEmail(email));
    if (!account) throw new NotFoundError('account');
    return account;
  }
}

/** What a person's profile entry compares: the fields they edit. */
function profileOf(account: Account): { name: string; email: string; timezone: string } {
  return { name: account.name, email: account.email, timezone: account.timezone };
}
