import type { CheckAnswer, LinkHealth } from './health.ts';

/** Does one check of one destination (HEAD, GET where HEAD is refused, redirects followed). */
export interface DestinationChecker {
  /** `signal` aborted: the check ends at once (its answer is no result, and is never recorded). */
  check(url: string, signal?: AbortSignal): Promise<CheckAnswer>;
}

/** A link taken for one round's check, with its health before. */
export interface ClaimedLink {
  linkId: number;
  accountId: number;
  url: string;
  health: LinkHealth;
}

/** Where links' health is kept, and which links are due (docs/design/health.md). */
export interface LinkHealthStore {
  /**
   * Up to `limit` enabled links due at `now` (never checked first, then by when they fell due),
   * each leased to `holder` until `leaseUntil`: while the lease lasts no other holder takes it.
   */
  claimDue(holder: string, now: number, leaseUntil: number, limit: number): Promise<ClaimedLink[]>;
  /** A check's result for the destination `url`, the next check's time; the lease ends. */
  record(linkId: number, url: string, health: LinkHealth, nextCheckAt: number): Promise<void>;
  /** The health of the account's links among `linkIds`; a link never checked (or not at its url) is absent. */
  healthOf(accountId: number, linkIds: readonly number[]): Promise<Map<number, LinkHealth>>;
}
