import type { Link, LinkView } from './link.ts';

export type LinkChange = 'link.created' | 'link.updated' | 'link.deleted';

/**
 * Told of each change once it is written (webhooks). A deleted link comes without its view.
 * Its failure never fails the change: the listener reports it itself.
 */
export type LinkEventListener = (accountId: number, change: LinkChange, link: Link, view: LinkView | null) => Promise<void>;
