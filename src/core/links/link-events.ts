import type { Link, LinkView } from './link.ts';

export type LinkChange = 'link.created' | 'link.updated' | 'link.deleted';

/** One link as a change left it: a deleted link comes without its view. */
export interface ChangedLink {
  link: Link;
  view: LinkView | null;
}

/**
 * Told of changes as they are written, in the change's unit of work (webhooks: the deliveries
 * commit with the change). Many links changed together (a bulk change's chunk, an import's
 * batch) are told in one call, so the listener looks its subscribers up once for them all. Its
 * failure fails the change, which is rolled back.
 */
export interface LinkEventListener {
  /** Whether anyone listens to this change of the account's links: spares reading views no one would get. */
  listens(accountId: number, change: LinkChange): Promise<boolean>;
  changed(accountId: number, change: LinkChange, links: readonly ChangedLink[]): Promise<void>;
}
