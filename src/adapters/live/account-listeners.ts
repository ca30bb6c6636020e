/** Who listens to which account on this instance: what the live feeds hand their messages to. */
export class AccountListeners<T> {
  private readonly byAccount = new Map<number, Set<(value: T) => void>>();

  constructor(private readonly onError: (error: unknown) => void) {}

  get size(): number {
    return this.byAccount.size;
  }

  add(accountId: number, listener: (value: T) => void): () => void {
    let listeners = this.byAccount.get(accountId);
    if (listeners === undefined) this.byAccount.set(accountId, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.byAccount.get(accountId) === listeners) this.byAccount.delete(accountId);
    };
  }

  /** To the account's listeners only; one that throws does not keep it from the others. */
  send(accountId: number, value: T): void {
    const listeners = this.byAccount.get(accountId);
    if (listeners === undefined) return;
    for (const listener of listeners) {
      try {
        listener(value);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  clear(): void {
    this.byAccount.clear();
  }
}
