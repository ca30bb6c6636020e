import { FieldErrorBag, NotFoundError, UnauthenticatedError, ValidationError } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { Clock } from '../shared/clock.ts';
import type { RedirectInvalidation } from '../redirect/redirect-events.ts';
import { checkKeyName, checkProfile, type ProfileInput } from './account-rules.ts';
import type { Account, ApiKey } from './account.ts';
import type { AccountStore } from './account-store.ts';
import { generateApiKey, hashApiKey, looksLikeApiKey } from './api-key.ts';
import { normaliseEmail } from './email.ts';

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
}

/** A key's last use is written at most this often: an API request is not a database write. */
export const KEY_TOUCH_EVERY_MS = 60_000;

export class AccountsService {
  constructor(
    private readonly store: AccountStore,
    private readonly clock: Clock,
    private readonly deps: AccountsServiceDeps = {},
  ) {}

  async createAccount(input: CreateAccountInput): Promise<{ account: Account; key: ApiKey; apiKey: string }> {
    const bag = new FieldErrorBag();
    const profile = checkProfile(input, bag);
    bag.throwIfAny();
    if (await this.store.findByEmail(profile.email)) throw ValidationError.of('email', messages.taken('email'));
    const generated = generateApiKey('default');
    const { account, key } = await this.store.createWithKey(profile, generated.stored, this.clock.now());
    return { account, key, apiKey: generated.plaintext };
  }

  async createKey(email: string, name: string | null): Promise<{ account: Account; key: ApiKey; apiKey: string }> {
    const account = await this.requireByEmail(email);
    const generated = generateApiKey(name);
    const key = await this.store.insertKey(account.id, generated.stored, this.clock.now());
    return { account, key, apiKey: generated.plaintext };
  }

  async listKeys(email: string): Promise<ApiKey[]> {
    return this.store.listKeys((await this.requireByEmail(email)).id);
  }

  async revokeKey(email: string, keyId: number): Promise<void> {
    const account = await this.requireByEmail(email);
    if (!(await this.store.revokeKey(account.id, keyId, this.clock.now()))) throw new NotFoundError('key');
  }

  /** Revokes the key whose plaintext the operator holds; returns its account. */
  async revokeKeyByValue(plaintext: string): Promise<{ account: Account; key: ApiKey }> {
    const found = looksLikeApiKey(plaintext) ? await this.store.findKeyByHash(hashApiKey(plaintext)) : null;
    if (!found || found.key.revokedAt !== null) throw new NotFoundError('key');
    await this.store.revokeKey(found.account.id, found.key.id, this.clock.now());
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
    if (found.key.lastUsedAt === null || found.key.lastUsedAt < since) await this.store.touchKey(found.key.id, now, since);
    return found;
  }

  /** The account's name, email and time zone; an email another account holds is refused. */
  async updateProfile(accountId: number, input: ProfileInput): Promise<Account> {
    const bag = new FieldErrorBag();
    const profile = checkProfile(input, bag);
    bag.throwIfAny();
    const holder = await this.store.findByEmail(profile.email);
    if (holder && holder.id !== accountId) throw ValidationError.of('email', messages.taken('email'));
    return this.store.updateProfile(accountId, profile);
  }

  /** A new key for a signed-in account; its plaintext is in this answer and nowhere else, ever. */
  async createKeyFor(accountId: number, name: string): Promise<{ key: ApiKey; apiKey: string }> {
    const bag = new FieldErrorBag();
    const checked = checkKeyName(name, bag);
    bag.throwIfAny();
    const generated = generateApiKey(checked);
    const key = await this.store.insertKey(accountId, generated.stored, this.clock.now());
    return { key, apiKey: generated.plaintext };
  }

  listKeysOf(accountId: number): Promise<ApiKey[]> {
    return this.store.listKeys(accountId);
  }

  /** Another account's key is not found; revoking one of its own twice changes nothing. */
  async revokeKeyOf(accountId: number, keyId: number): Promise<void> {
    if (await this.store.revokeKey(accountId, keyId, this.clock.now())) return;
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
