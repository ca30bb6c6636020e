import { messages } from '../shared/messages.ts';
import type { DomainStore } from './domain-store.ts';
import type { ReservedNames } from './reserved-names.ts';

/**
 * Who may hold a name. Claiming is free until someone proves control: the app's own hosts and
 * the operator's reserved names are nobody's, a verified name is its verifier's, and an account
 * holds a name once. Pending claims of other accounts block nothing.
 */
export class NameClaims {
  constructor(
    private readonly store: DomainStore,
    private readonly reserved: ReservedNames,
    /** Hosts the app answers on itself (APP_URL's host). */
    private readonly appHosts: readonly string[],
  ) {}

  /** Why the account may not claim (or verify) this name, as a message for `name`; null if it may. */
  async refusal(name: string, accountId: number, exceptId?: number): Promise<string | null> {
    if (this.appHosts.includes(name)) return messages.taken('name');
    const [reserved, verified, held] = await Promise.all([
      this.reserved.isReserved(name),
      this.store.nameVerified(name, exceptId),
      this.store.nameHeldBy(accountId, name, exceptId),
    ]);
    if (reserved) return messages.reserved('name');
    if (verified || held) return messages.taken('name');
    return null;
  }
}
