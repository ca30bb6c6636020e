import type { Platform } from '../targeting/target.ts';

/** What the redirect knows of whoever follows a link, derived from the request once. */
export interface Visitor {
  /** ISO 3166-1 alpha-2 (upper case) from the client address, or null when unknown. */
  country: string | null;
  /** One of the seed's seven platforms, or null (an unlisted OS). */
  platform: Platform | null;
  /** Accept-Language tags, primary subtags lower-cased, best first (q=0 dropped). */
  languages: string[];
  /** Browser family ("Chrome", "Firefox"…) or null. */
  browser: string | null;
  /** "desktop", "mobile", "tablet" or another ua-parser device type; null when unknown. */
  device: string | null;
  /** Known crawler, preview fetcher or automation: redirected without pixels, counted apart. */
  isBot: boolean;
  /** DNT: 1 or Sec-GPC: 1 — no tracking pixels for this visit. */
  refusesTracking: boolean;
  /** Host of the Referer header, lower case, or null. */
  referrerHost: string | null;
}
