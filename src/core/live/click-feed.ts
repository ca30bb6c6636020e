/** The human clicks one account's links received since its last tally (a delta, never a total). */
export interface ClickTally {
  accountId: number;
  /** Every link's clicks together: what the account's totals add. */
  clicks: number;
  /** Per link, by id; links without clicks are left out. */
  links: Record<number, number>;
}

export type TallyListener = (tally: ClickTally) => void;

/**
 * Clicks as they happen, per account: published from the click path, heard by the web app's
 * live pages (docs/design/statistics.md). At most once: a tally lost on the way is a number a reload shows.
 */
export interface ClickFeed {
  /** Never throws and never waits: a visit's answer does not depend on it. */
  publish(tallies: readonly ClickTally[]): void;
  /** Hears the account's tallies from every instance sharing the feed; answers the unsubscribe. */
  subscribe(accountId: number, listener: TallyListener): () => void;
  close(): Promise<void>;
}
