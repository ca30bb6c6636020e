import type { AttemptPolicy } from '../shared/attempt-limiter.ts';
import type { Link } from '../links/link.ts';
import { isExpired, type ExpiryFacts } from '../expiration/expiry.ts';

/**
 * Who may see a link's statistics pages (issue 17): its owner always; anyone else by the link's
 * `privacy` — 0 public, 1 private (answered exactly as a link that does not exist), 2 behind
 * `privacy_password`. A suspended owner's links show nothing to anyone else.
 */
export type StatsAccess =
  | 'owner'
  /** privacy 0: the numbers, nothing about the owner. */
  | 'public'
  /** privacy 2, not unlocked yet: the password form. */
  | 'locked'
  /** privacy 2, unlocked by this browser's cookie for the current password. */
  | 'unlocked'
  /** privacy 1, an unknown link, or a suspended owner: 404. */
  | 'hidden';

const STATS_PRIVACY = { Public: 0, Private: 1, Password: 2 } as const;

export function statsAccess(
  link: Pick<Link, 'accountId' | 'privacy' | 'privacyPasswordHash'> | null,
  owner: { suspendedAt: number | null } | null,
  viewerAccountId: number | null,
  unlocked: (passwordHash: string) => boolean,
): StatsAccess {
  if (!link || !owner) return 'hidden';
  if (viewerAccountId === link.accountId) return 'owner';
  if (owner.suspendedAt !== null) return 'hidden';
  if (link.privacy === STATS_PRIVACY.Public) return 'public';
  if (link.privacy === STATS_PRIVACY.Password && link.privacyPasswordHash !== null)
    return unlocked(link.privacyPasswordHash) ? 'unlocked' : 'locked';
  return 'hidden';
}

/**
 * Whoever may read the link's statistics in the app (its owner) sees every value; anyone else,
 * a visitor who unlocked a password page included, sees rare values folded (rare-values.ts) and
 * chooses among the range presets only (docs/design/statistics.md).
 */
export function seesEveryValue(access: StatsAccess): boolean {
  return access === 'owner';
}

/**
 * Whether a statistics page names the link's destination, and its title (read from the
 * destination's page), to this viewer. Not to anyone but the owner when the redirect itself
 * withholds it: a redirect password, or a link that no longer sends visitors there (disabled,
 * taken down by an operator, expired by date or clicks).
 */
export function showsDestination(
  access: StatsAccess,
  link: Pick<Link, 'passwordHash' | 'disabled' | 'blockedAt'> & ExpiryFacts,
  now: number,
): boolean {
  if (access === 'owner') return true;
  return link.passwordHash === null && link.disabled === 0 && link.blockedAt === null && !isExpired(link, now);
}

/** Guesses of a stats password: per client address and link, as many as the redirect's. */
export const STATS_PASSWORD_ATTEMPTS: AttemptPolicy = Object.freeze({
  name: 'stats-password',
  max: 5,
  windowSeconds: 60,
});

export function statsPasswordAttemptKey(clientAddress: string, linkId: number): string {
  return `${clientAddress}|${linkId}`;
}
