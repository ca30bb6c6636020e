/**
 * One visit that reached a destination. Never the raw address: only what statistics need.
 */
export interface Click {
  linkId: number;
  accountId: number;
  at: number;
  country: string | null;
  city: string | null;
  browser: string | null;
  platform: string | null;
  device: string | null;
  language: string | null;
  referrerHost: string | null;
  /** Bots are recorded apart and never counted in the link's clicks. */
  isBot: boolean;
}
