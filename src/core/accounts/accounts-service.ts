import { FieldErrorBag, NotFoundError, UnauthenticatedError, ValidationError } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { Clock } from '../shared/clock.ts';
import { checkProfile } from './account-rules.ts';
import type { Account, ApiKey } from './account.ts';
import type { AccountStore } from './account-store.ts';
import { generateApiKey, hashApiKey, looksLikeApiKey } from './api-key.ts';

export interface CreateAccountInput {
  email: string;
  name?: string | undefined;
  timezone?: string | undefined;
}

export class AccountsService {
  constructor(
    private readonly store: AccountStore,
    private readonly clock: Clock,
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

  /** Resolves a bearer token to its account; any doubt is "unauthenticated". */
  async authenticate(token: string): Promise<Account> {
    if (!looksLikeApiKey(token)) throw new UnauthenticatedError();
    const found = await this.store.findKeyByHash(hashApiKey(token));
    if (!found || found.key.revokedAt !== null || found.account.suspendedAt !== null) throw new UnauthenticatedError();
    return found.account;
  }

  async getAccount(id: number): Promise<Account> {
    const account = await this.store.findById(id);
    if (!account) throw new NotFoundError('account');
    return account;
  }

  private async requireByEmail(email: string): Promise<Account> {
    const account = await this.store.findByEmail(email.trim().toLowerCase());
    if (!account) throw new NotFoundError('account');
    return account;
  }
}
