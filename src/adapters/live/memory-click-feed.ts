import type { ClickFeed, ClickTally, TallyListener } from '../../core/live/click-feed.ts';
import { AccountListeners } from './account-listeners.ts';

/** One instance's feed (no REDIS_URL): tallies go straight to this process's listeners. */
export class MemoryClickFeed implements ClickFeed {
  private readonly listeners: AccountListeners<ClickTally>;

  constructor(onError: (error: unknown) => void = (error) => console.error('linkpix: live clicks:', error)) {
    this.listeners = new AccountListeners(onError);
  }

  publish(tallies: readonly ClickTally[]): void {
    for (const tally of tallies) this.listeners.send(tally.accountId, tally);
  }

  subscribe(accountId: number, listener: TallyListener): () => void {
    return this.listeners.add(accountId, listener);
  }

  close(): Promise<void> {
    this.listeners.clear();
    return Promise.resolve();
  }
}
