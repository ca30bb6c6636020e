/** The facts of a link that decide whether it has expired. */
export interface ExpiryFacts {
  endsAt: number | null;
  /** null or 0: no click limit. */
  expirationClicks: number | null;
  clicks: number;
}

export function isExpired(link: ExpiryFacts, now: number): boolean {
  if (link.endsAt !== null && link.endsAt <= now) return true;
  return link.expirationClicks !== null && link.expirationClicks > 0 && link.clicks >= link.expirationClicks;
}
