import type { SessionStore } from '../accounts/account-store.ts';

/**
 * Word that some of a person's sessions ended (signed out, ended from the account page, a new
 * password, a suspension) or one of their memberships did or changed (left, removed, a new
 * role, a workspace deleted), heard on every instance that shares it, so that what a session
 * holds open (the live stream) ends at once rather than at its next check (docs/design/statistics.md). It
 * says whose, never which session or workspace: each listener asks whether its own still stands.
 */
export interface SessionEnds {
  /** Never throws and never waits: the sign-out is done whether or not anyone hears of it. `accountId`: the person's. */
  publish(accountId: number): void;
  /** Hears the person's ends from every instance sharing the feed; answers the unsubscribe. */
  subscribe(accountId: number, listener: () => void): () => void;
  close(): Promise<void>;
}

/** The session store, telling `ends` after each write that ends sessions: every way out goes through it. */
export function announcingEnds(store: SessionStore, ends: SessionEnds): SessionStore {
  return {
    insert: (accountId, session) => store.insert(accountId, session),
    find: (tokenHash, now) => store.find(tokenHash, now),
    touch: (sessionId, now) => store.touch(sessionId, now),
    list: (accountId, now) => store.list(accountId, now),
    async delete(accountId, sessionId) {
      const ended = await store.delete(accountId, sessionId);
      if (ended) ends.publish(accountId);
      return ended;
    },
    async deleteAll(accountId, keepId) {
      await store.deleteAll(accountId, keepId);
      ends.publish(accountId);
    },
  };
}
