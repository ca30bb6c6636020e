import type { SignInService } from '../../../core/accounts/sign-in-service.ts';
import type { AdminService } from '../../../core/admin/admin-service.ts';
import type { PrivacyReport } from '../../../core/privacy/privacy-report.ts';
import type { TwoFactorService } from '../../../core/security/two-factor-service.ts';
import type { TwoStepSignIn } from '../../../core/security/two-step-sign-in.ts';
import type { PasswordResets } from '../../../core/security/password-resets.ts';
import type { EmailVerification } from '../../../core/security/email-verification.ts';
import type { AttemptLimiter } from '../../../core/shared/attempt-limiter.ts';
import type { CoreServices } from '../../shared/services/core-services.ts';
import type { QrRenderer } from '../../qr/qr-renderer.ts';
import type { QrLogoStore } from '../../qr/qr-logo-store.ts';
import type { LogoSaving } from '../../qr/qr-logo-upload.ts';
import type { CardImageStore } from '../../images/card-image-store.ts';
import type { UnlockCookies } from '../../shared/request/unlock-cookies.ts';
import type { RateLimitSettings } from '../../shared/request/rate-limit-settings.ts';
import type { CountryLookup } from '../../geo/country-lookup.ts';
import type { LiveStreams } from '../features/live/live-streams.ts';
import type { SsoSignIn } from '../../../core/sso/sso-sign-in.ts';
import type { SsoLinks } from '../../../core/sso/sso-links.ts';
import type { OpenIdConnect } from '../../oidc/openid-connect.ts';
import type { DigestPreferences } from '../../../core/health/digest-ports.ts';
import type { WebhooksService } from '../../../core/webhooks/webhooks-service.ts';
import type { LinkImporter } from '../../../core/links/import/link-importer.ts';
import type { ImportSlots } from '../../import/import-slots.ts';
import type { KeptImports } from '../../import/kept-imports.ts';
import type { FirstStepsService } from '../../../core/onboarding/first-steps.ts';

/** What the web app needs: the core's services (the API's rules), QR codes, signing in, and its settings. */
export interface WebContext extends CoreServices {
  /** Draws links' QR codes (the API's and the web app's). */
  qr: QrRenderer;
  /** Links' QR logos, drawn in the centre of their codes (docs/design/qr.md). */
  qrLogos: QrLogoStore;
  /** Links' uploaded social card images (docs/design/social-cards.md). */
  cardImages: CardImageStore;
  /** The image threads a logo or card image upload is read on (docs/design/images.md). */
  images: LogoSaving['images'];
  signIn: SignInService;
  /** Two-factor sign-in and password reset by email. */
  security: {
    twoFactor: TwoFactorService;
    twoStep: TwoStepSignIn;
    resets: PasswordResets;
    sso?: SsoServices | null;
    verification: EmailVerification | null;
    /** Whether a reset link is mailed; without a mail server /login/forgot says who can make one. */
    mailed?: boolean;
  };
  /** The API's importer and its guards (/links/import; docs/design/imports.md). */
  importer: LinkImporter;
  importSlots: ImportSlots;
  /** A dry run's file, kept in the database for its confirmation on any instance. */
  keptImports: KeptImports;
  /** The schemes a link may point to (URL_SCHEMES): the importer's rows are checked against them. */
  urlSchemes: readonly string[];
  /** The workspace's webhooks (/webhooks), the API's service. */
  webhooks: WebhooksService;
  /** The operators' side: /admin (the CLI uses it too). */
  admin: AdminService;
  /** What visits and people leave in the database: /privacy and /admin/data. */
  privacy: PrivacyReport;
  /** Each person's choice to get the broken-links digest (the account page; docs/design/health.md). */
  digestPreferences: DigestPreferences;
  /** The dashboard's first-run checklist: its ticks and each person's dismissal. */
  firstSteps: FirstStepsService;
  web: WebOptions;
}

export interface WebOptions {
  /** open: anyone may make an account at /signup; closed: only the CLI makes accounts. */
  signup: 'open' | 'closed';
  /** The key that binds each form's CSRF token to its browser (a shared secret of the service). */
  csrfSecret: string;
  /**
   * The password of password-protected statistics pages: its attempt limit (shared like the
   * redirect password's) and its unlock cookies. Absent: one instance's memory and a key made
   * at start (unlocks then last until a restart).
   */
  statsPasswords?: { attempts: AttemptLimiter; cookies: UnlockCookies };
  /** The redirect's country lookup: the link form's preview tells where a visitor like this one goes. Absent: unknown. */
  countries?: Pick<CountryLookup, 'country'>;
  /** Requests per account (or per address, signed out) and window (WEB_RATE_LIMIT); absent: none. */
  rateLimit?: RateLimitSettings;
  /** The live clicks' streams (GET /account/live); absent: no such route. */
  live?: LiveStreams;
  /** The import page's upload: its largest file (IMPORT_MAX_BYTES) and its window (the API's, upload-window.ts). */
  imports?: { maxBytes: number; spoolMs: number };
  /** A start during a database outage, from the redirect snapshot: every page answers 503 (outage-pages.ts). */
  outage?: boolean;
}

/** Single sign-on with an OpenID provider (docs/design/teams.md); absent when OIDC_ISSUER is not set. */
export interface SsoServices {
  /** On the "Sign in with …" link. */
  name: string;
  provider: Pick<OpenIdConnect, 'start' | 'finish'>;
  signIn: SsoSignIn;
  /** A signed-in person's linked identities (/account/security). */
  links: SsoLinks;
}
