import type { Rule } from '../rules/rule.ts';
import type { Targets, TargetType } from '../targeting/target.ts';
import type { Space } from '../spaces/space.ts';
import type { Domain } from '../domains/domain.ts';
import type { Pixel } from '../pixels/pixel.ts';
import type { Tag } from '../tags/tag.ts';
import type { SocialCard } from './social-card.ts';
import type { HealthStatus, LinkHealth } from '../health/health.ts';

export interface Link {
  id: number;
  accountId: number;
  domainId: number | null;
  spaceId: number | null;
  alias: string;
  url: string;
  title: string | null;
  /** The link preview unfurlers are shown (core/links/social-card.ts), or null: the defaults. */
  socialCard: SocialCard | null;
  /** The destination's own og: tags, fetched with its title (TITLE_FETCH); never set by a client. */
  pageCard: SocialCard | null;
  targetType: TargetType;
  targets: Targets;
  /**
   * The link's own rules (docs/design/rules.md), or null: then target_type and its list act, as in
   * phpShort. A link with rules has target_type 0.
   */
  rules: Rule[] | null;
  /** App links for visitors on iOS / Android when the link's own url is where they go (docs/design/rules.md). */
  iosUrl: string | null;
  androidUrl: string | null;
  /** 1: the redirect adds a signed click id, `lpx_cid`, to the destination (docs/design/rules.md). */
  trackConversions: 0 | 1;
  /** Position of the last rotation entry served, for round-robin. */
  lastRotation: number;
  disabled: 0 | 1;
  /** When an operator took the link down: it stays disabled until an operator enables it. */
  blockedAt: number | null;
  privacy: 0 | 1 | 2;
  privacyPasswordHash: string | null;
  passwordHash: string | null;
  expirationUrl: string | null;
  expirationClicks: number | null;
  endsAt: number | null;
  clicks: number;
  pixelIds: number[];
  createdAt: number;
  updatedAt: number;
}

/** The columns a client can set; everything else is kept by the service. */
export type LinkFields = Pick<
  Link,
  | 'domainId'
  | 'spaceId'
  | 'alias'
  | 'url'
  | 'title'
  | 'socialCard'
  | 'targetType'
  | 'targets'
  | 'rules'
  | 'iosUrl'
  | 'androidUrl'
  | 'trackConversions'
  | 'disabled'
  | 'privacy'
  | 'privacyPasswordHash'
  | 'passwordHash'
  | 'expirationUrl'
  | 'expirationClicks'
  | 'endsAt'
>;

/** A link with the records it refers to, as the API shows it. */
export interface LinkView {
  link: Link;
  space: Space | null;
  domain: Domain | null;
  pixels: Pixel[];
  /** By name. */
  tags: Tag[];
  /** Its destination's last check (docs/design/health.md); absent: unknown. */
  health?: LinkHealth;
}

export const LinkStatus = { All: 0, Active: 1, Expired: 2, Disabled: 3 } as const;
export type LinkStatus = (typeof LinkStatus)[keyof typeof LinkStatus];

export type LinkSort = 'desc' | 'asc' | 'max' | 'min';
export type LinkSearchField = 'title' | 'alias' | 'url';
/** One field, or `any` of the three (the web app's default; the API's stays `title`, as phpShort's). */
export type LinkSearchScope = LinkSearchField | 'any';

export interface LinkFilter {
  search?: string | undefined;
  by: LinkSearchScope;
  status: LinkStatus;
  spaceId?: number | undefined;
  domainId?: number | undefined;
  pixelId?: number | undefined;
  /** A tag's name, ignoring case. */
  tag?: string | undefined;
  /** The destination's health (docs/design/health.md). */
  health?: HealthStatus | undefined;
  sort: LinkSort;
}
