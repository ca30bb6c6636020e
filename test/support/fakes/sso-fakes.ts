import type { Account, NewAccount } from '../../../src/core/accounts/account.ts';
import type { SsoIdentity, SsoIdentityStore } from '../../../src/core/sso/sso-identity-store.ts';
import type { MemoryAccountStore } from './account-fakes.ts';

const keyOf = (i: SsoIdentity) => `${i.issuer} ${i.subject}`;

/** The identities in memory; the accounts they make go into the accounts fake, without a password. */
export class MemorySsoIdentityStore implements SsoIdentityStore {
  private readonly links = new Map<string, number>();

  constructor(private readonly accounts: MemoryAccountStore) {}

  async findUser(identity: SsoIdentity): Promise<number | null> {
    return this.links.get(keyOf(identity)) ?? null;
  }

  async link(userId: number, identity: SsoIdentity): Promise<void> {
    if (!this.links.has(keyOf(identity))) this.links.set(keyOf(identity), userId);
  }

  async createUser(account: NewAccount, identity: SsoIdentity, now: number): Promise<Account> {
    // As the table's unique key and the transaction: a linked identity makes no account.
    if (this.links.has(keyOf(identity))) throw new Error(`the identity ${keyOf(identity)} is linked already`);
    const made = this.accounts.add(account, null, now);
    this.links.set(keyOf(identity), made.id);
    return made;
  }
}
