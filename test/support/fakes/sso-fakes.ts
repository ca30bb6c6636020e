import type { Account, NewAccount } from '../../../src/core/accounts/account.ts';
import type {
  LinkedIdentity,
  SsoIdentity,
  SsoIdentityStore,
  UnlinkOutcome,
} from '../../../src/core/sso/sso-identity-store.ts';
import type { MemoryAccountStore } from './account-fakes.ts';

const keyOf = (i: SsoIdentity) => `${i.issuer} ${i.subject}`;

/** The identities in memory; the accounts they make go into the accounts fake, without a password. */
export class MemorySsoIdentityStore implements SsoIdentityStore {
  private readonly links = new Map<string, { userId: number; identity: LinkedIdentity }>();

  constructor(private readonly accounts: MemoryAccountStore) {}

  async findUser(identity: SsoIdentity): Promise<number | null> {
    return this.links.get(keyOf(identity))?.userId ?? null;
  }

  async link(userId: number, identity: SsoIdentity, now: number): Promise<void> {
    if (!this.links.has(keyOf(identity)))
      this.links.set(keyOf(identity), {
        userId,
        identity: { issuer: identity.issuer, subject: identity.subject, createdAt: now },
      });
  }

  async ofUser(userId: number): Promise<LinkedIdentity[]> {
    return [...this.links.values()]
      .filter((l) => l.userId === userId)
      .map((l) => ({ ...l.identity }))
      .sort((a, b) => a.createdAt - b.createdAt || (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0));
  }

  async unlink(userId: number, identity: SsoIdentity): Promise<UnlinkOutcome> {
    if (this.links.get(keyOf(identity))?.userId !== userId) return 'absent';
    const others = [...this.links.values()].filter((l) => l.userId === userId).length - 1;
    if (others === 0 && (await this.accounts.passwordHashOf(userId)) === null) return 'last';
    this.links.delete(keyOf(identity));
    return 'unlinked';
  }

  async createUser(account: NewAccount, identity: SsoIdentity, now: number): Promise<Account> {
    // As the table's unique key and the transaction: a linked identity makes no account.
    if (this.links.has(keyOf(identity))) throw new Error(`the identity ${keyOf(identity)} is linked already`);
    const made = this.accounts.add(account, null, now);
    this.links.set(keyOf(identity), {
      userId: made.id,
      identity: { issuer: identity.issuer, subject: identity.subject, createdAt: now },
    });
    return made;
  }
}
