/**
 * Told when something a visit depends on changes, so caches of links can drop stale entries
 * (on every instance, when the implementation broadcasts).
 */
export interface RedirectInvalidation {
  /** One link changed or was deleted. */
  linkChanged(linkId: number): void;
  /** Something many links refer to changed (a pixel, a domain): drop the account's entries. */
  accountChanged(accountId: number): void;
}

export const noInvalidation: RedirectInvalidation = { linkChanged: () => {}, accountChanged: () => {} };
