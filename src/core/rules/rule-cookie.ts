/**
 * The first-party cookie a link with `returning` conditions or splits gives its visitors
 * (docs/design/rules.md): present means "has followed this link"; it holds each split's drawn variant
 * as `<split key>-<variant>` tokens joined by ".", so a visitor keeps their variant for its life.
 */
export const RULE_COOKIE_DAYS = 30;
/** Splits remembered at most, the latest drawn first: bounds the cookie's size. */
const MAX_TOKENS = 8;
const SEEN = '1';

/** The cookie's name is this and the link's id. */
export const RULE_COOKIE_PREFIX = 'lp_v';

export function ruleCookieName(linkId: number): string {
  return `${RULE_COOKIE_PREFIX}${linkId}`;
}

/** The variant remembered for a split, or null. */
export function rememberedVariant(cookie: string | undefined, splitKey: string, size: number): number | null {
  if (cookie === undefined) return null;
  const prefix = `${splitKey}-`;
  for (const token of cookie.split('.')) {
    if (!token.startsWith(prefix)) continue;
    const v = Number(token.slice(prefix.length));
    return Number.isInteger(v) && v >= 0 && v < size ? v : null;
  }
  return null;
}

/** The cookie with a split's variant put first (replacing an earlier draw of the same split). */
export function withVariant(cookie: string | undefined, splitKey: string, variant: number): string {
  const kept = (cookie ?? '').split('.').filter((t) => t !== '' && t !== SEEN && !t.startsWith(`${splitKey}-`));
  return [`${splitKey}-${variant}`, ...kept].slice(0, MAX_TOKENS).join('.');
}

/** The cookie of a first visit that drew no variant. */
export const SEEN_COOKIE = SEEN;
