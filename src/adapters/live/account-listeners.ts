import type { ClickTally, TallyListener } from '../../core/live/click-feed.ts';

/** Who listens to which account on this instance: what both feeds hand their tallies to. */
export class AccountListeners {
  private readonly byAccount = new Map<number, Set<TallyListener>>();

  constructor(private readonly onError: (error: unknown) => void) {}

  get size(): number {
    return this.byAccount.size;
  }

  add(accountId: number, listener: TallyListener): () => void {
    let listeners = this.byAccount.get(accountId);
    if (listeners === undefined) this.byAccount.set(accountId, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.byAccount.get(accountId) === listeners) this.byAccount.delete(accountId);
    };
  }

  /** Each tally to its account's listeners only; one that throws does not keep it from the others. */
  deliver(tallies: readonly ClickTally[]): void {
    for (const tally of tallies) {
      const listeners = this.byAccount.get(tally.accountId);
      if (listeners === undefined) continue;
      for (const listener of listeners) {
        try {
          listener(tally);
        } catch (error) {
          this.onError(error);
        }
      }
    }
  }

  clear(): void {
    this.byAccount.clear();
  }
}
