import { isExpired } from '../expiration/expiry.ts';
import type { Link } from './link.ts';

/** What a link does now, as the list's status filter partitions links (api.md §5). */
export type LinkState = 'active' | 'disabled' | 'expired';

export function linkStateOf(
  link: Pick<Link, 'disabled' | 'endsAt' | 'expirationClicks' | 'clicks'>,
  now: number,
): LinkState {
  if (link.disabled === 1) return 'disabled';
  return isExpired(link, now) ? 'expired' : 'active';
}
