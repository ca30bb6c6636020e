import type { Clock } from '../../core/shared/clock.ts';
import type { ClickQuota, ClickSink, RotationCursor } from '../../core/clicks/ports.ts';
import type { AttemptLimiter } from '../../core/shared/attempt-limiter.ts';
import type { RedirectLink, RedirectLinkSource } from '../../core/redirect/redirect-link.ts';
import type { ConsentMode } from '../../core/redirect/resolve-visit.ts';
import type { CountryLookup } from '../geo/country-lookup.ts';
import type { UnlockCookies } from '../shared/request/unlock-cookies.ts';
import type { ClickStamper } from '../../core/stats/click-stamp.ts';
import type { ClickIds } from '../../core/conversions/click-id.ts';

/** What the public redirect needs, handed in by the composition root. */
/** The link cache, read without waiting (the fast path): undefined when the link is not cached. */
export interface CachedLinks {
  peek(host: string, alias: string): RedirectLink | null | undefined;
}

/** The custom domains a TLS certificate may be issued for, from memory (GET /tls/allowed, tls-allowed.ts). */
export interface CertifiableNames {
  /** Undefined while that is not known yet: ready() then loads the list. */
  mayCertify(host: string): boolean | undefined;
  ready(): Promise<void>;
}

/** The app's privacy page, which the visitor pages link to: on APP_URL, whichever host the visit came by. */
export const privacyUrlOf = (ctx: RedirectContext): string => `${ctx.options.appUrl}/privacy`;

export interface RedirectContext {
  source: RedirectLinkSource;
  /** The names GET /tls/allowed answers 200 for, besides the app's host; absent or null: none. */
  certifiable?: CertifiableNames | null;
  /** The same links, read without waiting, for the door's fast path (door.ts); null turns it off. */
  cached: CachedLinks | null;
  countries: CountryLookup;
  quota: ClickQuota;
  rotation: RotationCursor;
  sink: ClickSink;
  /** Guesses of a link's password (PASSWORD_ATTEMPTS). */
  attempts: AttemptLimiter;
  unlock: UnlockCookies;
  clock: Clock;
  /** Local day, hour and visitor hash of each click, for statistics. */
  stamper: ClickStamper;
  /** Signs the click ids of links that track conversions (docs/design/rules.md). */
  clickIds: ClickIds;
  verifyPassword(password: string, hash: string): Promise<boolean>;
  options: {
    redirectStatus: 301 | 302 | 307 | 308;
    consentMode: ConsentMode;
    secureCookies: boolean;
    /** APP_URL without a trailing slash, for the preview's short URL on the default domain. */
    appUrl: string;
    domainScheme: 'http' | 'https';
    /** Hosts that are the app itself (APP_URL's), never looked up as custom domains. */
    appHosts: ReadonlySet<string>;
  };
}
