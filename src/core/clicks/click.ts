/** What is known of a visitor, as a click row keeps it (never the address). */
export interface ClickTraits {
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

/**
 * One visit that reached a destination. Never the raw address: only what statistics need.
 */
export interface Click extends ClickTraits {
  linkId: number;
  accountId: number;
  at: number;
  /** `at` in the account's time zone: the local day (YYYY-MM-DD) and hour (0–23) statistics count it in. */
  day: string;
  hour: number;
  /** Keyed hash of address + User-Agent under a salt of the local day (core/stats/visitor-hash.ts); null for bots. */
  visitor: string | null;
  /**
   * The rule and split variant that decided the visit (docs/design/rules.md); null or absent: none did
   * (the redirect always sets both; clicks read back for their rollups leave them out).
   */
  rule?: number | null;
  variant?: number | null;
  /** The visit came through a QR code: its short URL carried `qr=1` (docs/design/qr.md). */
  qr?: boolean;
}
