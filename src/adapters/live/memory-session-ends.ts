import type { SessionEnds } from '../../core/live/session-ends.ts';
import { AccountListeners } from './account-listeners.ts';

/** One instance's session ends (no REDIS_URL): straight to this process's listeners. */
export class MemorySessionEnds implements SessionEnds {
  private readonly listeners: AccountListeners<null>;

  constructor(onError: (error: unknown) => void = (error) => console.error('linkpix: session ends:', error)) {
    this.listeners = new AccountListeners(onError);
  }

  publish(accountId: number): void {
    this.listeners.send(accountId, null);
  }

  subscribe(accountId: number, listener: () => void): () => void {
    return this.listeners.add(accountId, listener);
  }

  close(): Promise<void> {
    this.listeners.clear();
    return Promise.resolve();
  }
}
