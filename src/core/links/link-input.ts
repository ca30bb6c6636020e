import type { TargetListInput } from '../targeting/targeting-rules.ts';

/**
 * A create or update request, named as the API names its fields so that a rule's error
 * names the very field the client sent. undefined: not sent; null: clear.
 */
export interface LinkInput {
  url?: string | null | undefined;
  domain?: number | null | undefined;
  alias?: string | null | undefined;
  title?: string | null | undefined;
  /** The link preview (core/links/social-card.ts): `{title, description, image}` or null; checked by checkSocialCard. */
  social_card?: unknown;
  password?: string | null | undefined;
  space?: number | null | undefined;
  pixels?: number[] | null | undefined;
  /** Tag names; a name the account has not used yet becomes a tag. null or []: none. */
  tags?: string[] | null | undefined;
  disabled?: number | null | undefined;
  privacy?: number | null | undefined;
  privacy_password?: string | null | undefined;
  expiration_url?: string | null | undefined;
  expiration_date?: string | null | undefined;
  expiration_time?: string | null | undefined;
  expiration_clicks?: number | null | undefined;
  target_type?: number | null | undefined;
  country?: TargetListInput;
  platform?: TargetListInput;
  language?: TargetListInput;
  rotation?: TargetListInput;
  /** The link's rules (docs/design/rules.md), as JSON or JSON text; checked by core/rules/check-rules.ts. */
  rules?: unknown;
  /** App links (docs/design/rules.md): https, or a custom scheme on APP_SCHEMES; checked by UrlPolicy.checkApp. */
  ios_url?: unknown;
  android_url?: unknown;
  /** 1: visits carry a signed click id to the destination, for conversions (docs/design/rules.md). */
  track_conversions?: number | null | undefined;
}

export const LINK_LIMITS = {
  aliasMax: 255,
  titleMax: 255,
  passwordMax: 128,
  pixelsMax: 50,
  expirationClicksMax: 2_147_483_647,
} as const;
