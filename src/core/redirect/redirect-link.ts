import type { PixelType } from '../pixels/pixel.ts';
import type { CompiledRules } from '../rules/compile-rules.ts';
import type { SocialCard } from '../links/social-card.ts';

/** What a visit needs of a link: small enough to cache, nothing the API alone shows. */
export interface RedirectLink {
  id: number;
  accountId: number;
  domainId: number | null;
  alias: string;
  url: string;
  title: string | null;
  /**
   * What unfurlers are shown instead of the redirect (docs/design/social-cards.md): the link's
   * card over its defaults, or null — none to show, or a password-protected link, which shows none.
   */
  card: SocialCard | null;
  /**
   * How the link decides where a visit goes, compiled once when the link was read: its rules, or
   * its phpShort targeting list compiled into rules (core/rules/compile-targeting.ts).
   */
  rules: CompiledRules;
  /** App links for visitors on that OS when the link's own url is where they go (docs/design/rules.md). */
  iosUrl: string | null;
  androidUrl: string | null;
  /** Visits carry a signed click id to the destination as lpx_cid (docs/design/rules.md). */
  trackConversions: boolean;
  lastRotation: number;
  disabled: boolean;
  passwordHash: string | null;
  expirationUrl: string | null;
  expirationClicks: number | null;
  endsAt: number | null;
  /** Clicks as last read from the database (the quota keeps the exact live count). */
  clicks: number;
  pixels: Array<{ type: PixelType; value: string }>;
  /** The account's time zone, for statistics later; expiry is already an instant. */
  timezone: string;
}

/** Finds links by host and alias for visits; implementations may cache. */
export interface RedirectLinkSource {
  /** host: the request's host name, lower case, without port. */
  find(host: string, alias: string): Promise<RedirectLink | null>;
  /** The custom domain answering on a host, for its root and not-found pages. */
  domain(host: string): Promise<RedirectDomain | null>;
}

export interface RedirectDomain {
  id: number;
  accountId: number;
  indexPage: string | null;
  notFoundPage: string | null;
  /** The app-link files its host serves, as JSON text, or null (docs/design/domains.md). */
  appleAppSiteAssociation: string | null;
  assetLinks: string | null;
}

/**
 * Every custom domain's name, whatever its state. A host not among them is no custom domain:
 * it serves the app's own links (as an IP or a load balancer's name does), so caches key it as
 * the app's host instead of by whatever Host a client sent.
 */
export interface DomainNameSource {
  domainNames(): Promise<string[]>;
  /**
   * The verified names a TLS certificate may be issued for: their workspace not suspended and
   * the name not reserved by the operator (GET /tls/allowed). Absent: none.
   */
  certifiableNames?(): Promise<string[]>;
}

/** A link and the host it answers on: a custom domain's name, or null for the app's own. */
export interface HostedLink {
  host: string | null;
  link: RedirectLink;
}

/** What a cache warm-up reads: the links most visited lately, then those links in batches. */
export interface MostVisitedSource {
  /** At most `limit` link ids, the most clicked over the last days first. */
  mostVisited(limit: number, now: number): Promise<number[]>;
  /** The links of these ids that visits can reach. */
  byIds(ids: readonly number[]): Promise<HostedLink[]>;
}
