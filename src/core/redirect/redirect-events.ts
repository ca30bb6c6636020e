/**
 * Told when something a visit depends on changes, so caches of links can drop stale entries
 * (on every instance, when the implementation broadcasts).
 */
export interface RedirectInvalidation {
  /**
   * One link changed or was deleted. alias: the alias it has now, when the write may have given
   * it a new one (a creation, an update), so that an "unknown" remembered for it goes too.
   */
  linkChanged(linkId: number, alias?: string): void;
  /** Something many links refer to changed (a pixel, a domain): drop the account's entries. */
  accountChanged(accountId: number): void;
}

export const noInvalidation: RedirectInvalidation = { linkChanged: () => {}, accountChanged: () => {} };
