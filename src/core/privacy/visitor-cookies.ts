/**
 * The names and lifetimes of the cookies a visit may get. The redirect sets them from here and
 * the privacy page tells them from here, so the page cannot say other than what is set.
 */

/** A visitor's answer on the consent page (PIXEL_CONSENT=ask): `yes` or `no`. */
export const CONSENT_COOKIE = 'lp_consent';
export const CONSENT_COOKIE_DAYS = 30;

/** A password-protected link unlocked: an HMAC of the link id and its password hash, never the password. */
export const UNLOCK_COOKIE_PREFIX = 'lp_unlock_';
/** A password-protected statistics page unlocked, the same scheme on its own path. */
export const STATS_UNLOCK_COOKIE_PREFIX = 'lpx_stats_';
export const UNLOCK_COOKIE_HOURS = 12;
