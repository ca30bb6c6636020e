import { inspect } from 'node:util';
import { sql, type Kysely } from 'kysely';
import { systemClock, type Clock } from '../core/shared/clock.ts';
import { UnavailableError } from '../core/shared/errors.ts';
import { AccountsService } from '../core/accounts/accounts-service.ts';
import { LinksService } from '../core/links/links-service.ts';
import { LinkImporter } from '../core/links/import/link-importer.ts';
import { ImportSlots } from '../adapters/import/import-slots.ts';
import { SqlImportLeases } from '../adapters/storage/stores/import-lease-store.ts';
import { PixelsService } from '../core/pixels/pixels-service.ts';
import { SpacesService } from '../core/spaces/spaces-service.ts';
import { UtmTemplatesService } from '../core/utm/utm-templates-service.ts';
import { DomainsService } from '../core/domains/domains-service.ts';
import { DomainOperator } from '../core/domains/domain-operator.ts';
import { NameClaims } from '../core/domains/name-claims.ts';
import type { DomainOwnershipCheck } from '../core/domains/ownership-check.ts';
import { StatsService } from '../core/stats/stats-service.ts';
import { AdminService } from '../core/admin/admin-service.ts';
import {
  SIGN_IN_PER_ACCOUNT,
  SIGN_IN_PER_ADDRESS,
  SIGN_UP_LIMITERS,
  SignInService,
} from '../core/accounts/sign-in-service.ts';
import { SqlSessionStore } from '../adapters/storage/stores/session-store.ts';
import { TWO_FACTOR_ATTEMPTS, TwoFactorService } from '../core/security/two-factor-service.ts';
import { TwoStepSignIn } from '../core/security/two-step-sign-in.ts';
import { PasswordResets, RESET_PER_ADDRESS, RESET_PER_EMAIL } from '../core/security/password-resets.ts';
import { EmailVerification, VERIFY_PER_ADDRESS, VERIFY_PER_EMAIL } from '../core/security/email-verification.ts';
import { SqlEmailVerificationStore } from '../adapters/storage/stores/email-verification-store.ts';
import type { Mailer } from '../core/mail/mailer.ts';
import { SqlChallengeStore, SqlTwoFactorStore } from '../adapters/storage/stores/two-factor-store.ts';
import { SqlPasswordResetStore } from '../adapters/storage/stores/password-reset-store.ts';
import { SqlSsoIdentityStore } from '../adapters/storage/stores/sso-identity-store.ts';
import { SsoSignIn, type SsoSignInDeps } from '../core/sso/sso-sign-in.ts';
import { SsoLinks } from '../core/sso/sso-links.ts';
import { OpenIdConnect } from '../adapters/oidc/openid-connect.ts';
import type { SsoServices } from '../adapters/web/app/web-context.ts';
import { SecretBox } from '../adapters/secrets/secret-box.ts';
import { SealKeys, type SealKeySource } from '../adapters/secrets/seal-keys.ts';
import { keyFileOf } from '../adapters/secrets/key-file.ts';
import { sharedSecret } from '../adapters/storage/stores/secret-store.ts';
import { OtpauthTotp } from '../adapters/totp/otpauth-totp.ts';
import { SmtpMailer } from '../adapters/mail/smtp-mailer.ts';
import { LogMailer } from '../adapters/mail/log-mailer.ts';
import { Argon2Hasher } from '../adapters/passwords/argon2-hasher.ts';
import { UrlPolicy } from '../core/links/url-policy.ts';
import type { TitleFetcher } from '../core/links/title-fetcher.ts';
import { connect, sqlitePath, type Storage } from '../adapters/storage/connect.ts';
import type { Database } from '../adapters/storage/schema.ts';
import { unitOfWorkOn } from '../adapters/storage/transactions.ts';
import type { OutageLog } from '../adapters/shared/outage-reporter.ts';
import { migrateToLatest } from '../adapters/storage/migrations/index.ts';
import { SqlAccountStore } from '../adapters/storage/stores/account-store.ts';
import { SqlWorkspaceStore } from '../adapters/storage/stores/workspace-store.ts';
import { INVITATION_LIMITERS, WorkspacesService } from '../core/workspaces/workspaces-service.ts';
import { SqlLinkStore } from '../adapters/storage/stores/link-store.ts';
import { SqlRawClickStore } from '../adapters/storage/stores/raw-click-store.ts';
import { ClickExportService } from '../core/stats/click-export.ts';
import { SqlPixelStore } from '../adapters/storage/stores/pixel-store.ts';
import { SqlSpaceStore } from '../adapters/storage/stores/space-store.ts';
import { SqlUtmTemplateStore } from '../adapters/storage/stores/utm-template-store.ts';
import { SqlDomainStore } from '../adapters/storage/stores/domain-store.ts';
import { SqlTagStore } from '../adapters/storage/stores/tag-store.ts';
import { TagsService } from '../core/tags/tags-service.ts';
import { SqlReservedNames } from '../adapters/storage/stores/reserved-names-store.ts';
import { DnsTxtCheck } from '../adapters/domain-ownership/dns-txt-check.ts';
import { HttpFileCheck } from '../adapters/domain-ownership/http-file-check.ts';
import { SqlFilteredClickStore } from '../adapters/storage/stores/filtered-click-store.ts';
import { SqlStatsStore } from '../adapters/storage/stores/stats-store.ts';
import { LinkClickCounts } from '../adapters/clicks/postgres/link-click-counts.ts';
import { SqlAdminStore } from '../adapters/storage/stores/admin-store.ts';
import { SqlClickRetention } from '../adapters/storage/stores/click-retention.ts';
import { SqlRollupMonths } from '../adapters/storage/stores/rollup-months.ts';
import { HttpTitleFetcher } from '../adapters/title/http-title-fetcher.ts';
import { QrRenderer } from '../adapters/qr/qr-renderer.ts';
import { ImageThreads } from '../adapters/images/image-threads.ts';
import { announcingEnds } from '../core/live/session-ends.ts';
import { SqlQrLogoStore } from '../adapters/storage/stores/qr-logo-store.ts';
import type { ApiContext } from '../adapters/http/handlers/context.ts';
import type { Config } from './config.ts';
import { tuningOf, type Tuning } from './tuning.ts';
import { createVisitRuntime, type VisitRuntime } from './visit-runtime.ts';
import { createWebhookRuntime, type WebhookRuntime, type WebhookRuntimeOverrides } from './webhook-runtime.ts';
import { linkRecord } from '../adapters/http/presenters/link-record.ts';
import { RuleExplainer } from '../core/rules/explain-service.ts';
import { ConversionService } from '../core/conversions/conversion-service.ts';
import { ClickIds } from '../core/conversions/click-id.ts';
import { SqlConversionStore } from '../adapters/storage/stores/conversion-store.ts';
import { RulePreview } from '../core/rules/rule-preview.ts';
import { SqlOwnedRedirectLinks } from '../adapters/storage/stores/owned-redirect-links.ts';
import { SqlReplayClickStore } from '../adapters/storage/stores/replay-click-store.ts';
import { SqlAuditLog, SqlAuditStore } from '../adapters/storage/stores/audit-store.ts';
import { AuditService } from '../core/audit/audit-service.ts';

/** Two-factor sign-in and password reset by email (docs/adr/0065). */
export interface SecurityServices {
  twoFactor: TwoFactorService;
  twoStep: TwoStepSignIn;
  resets: PasswordResets;
  /** Single sign-on (docs/adr/0073): null unless OIDC_ISSUER is set. */
  sso: SsoServices | null;
  /** EMAIL_VERIFICATION=required; null: off. */
  verification: EmailVerification | null;
}

export interface Container extends ApiContext {
  signIn: SignInService;
  /** The key sealing secrets at rest (docs/design/secrets.md); the start awaits its check. */
  sealKeys: SealKeys;
  security: SecurityServices;
  admin: AdminService;
  storage: Storage;
  /** The constants in force (docs/design/settings.md): their values, or a test's. */
  tuning: Tuning;
  /** PostgreSQL's pending link click counts, settled by the server now and then (null on SQLite). */
  linkClickCounts: LinkClickCounts | null;
  /** The operator's side of domains (the CLI). */
  domainOperator: DomainOperator;
  visits: VisitRuntime;
  /** Started and stopped by the server; the CLI's changes only enqueue. */
  hooks: WebhookRuntime;
  clock: Clock;
  migrate(): Promise<string[]>;
  close(): Promise<void>;
}

export interface ContainerOverrides {
  clock?: Clock;
  titles?: TitleFetcher | null;
  /** PostgreSQL schema to work in (tests isolate themselves this way). */
  pgSchema?: string;
  onError?: (error: unknown) => void;
  /** Replaces the DNS and HTTP checks of domain ownership (tests never reach real DNS). */
  domainChecks?: readonly DomainOwnershipCheck[];
  /** Where a lost database or Redis connection, and its return, is told. */
  outageLog?: OutageLog;
  /** Replaces the mailer SMTP_URL picks. */
  mailer?: Mailer;
  /** Replaces the webhooks' sender and target check (tests). */
  webhooks?: WebhookRuntimeOverrides;
  /** Where the server's log lines go, at LOG_LEVEL (tests read them); standard output when absent. */
  logStream?: { write(line: string): void };
  /** Constants a test moves (docs/design/settings.md); the rest keep their values. */
  tuning?: Partial<Tuning>;
  /** Where the seal key's warnings go (SEAL_KEY unset on PostgreSQL, a key file gone): the server's logger; standard error (unless LOG_LEVEL=silent) when absent. */
  warn?: (line: string) => void;
}

/** One line per event: the stack of a refused connection says nothing an operator needs. */
export const consoleOutageLog: OutageLog = (message, error) =>
  console.error(
    `linkpix: ${message}${error === undefined ? '' : `: ${error instanceof Error ? error.message : inspect(error)}`}`,
  );

/** Time each request to the OpenID provider (discovery, token, userinfo) may take. */
const OIDC_TIMEOUT_SECONDS = 10;

function ssoOf(
  config: Config,
  deps: Pick<SsoSignInDeps, 'identities' | 'accounts' | 'twoStep' | 'clock'>,
): SsoServices | null {
  if (config.OIDC_ISSUER === null) return null;
  const provider = new OpenIdConnect({
    issuer: config.OIDC_ISSUER,
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET,
    redirectUri: `${config.APP_URL}/login/sso/callback`,
    timeoutSeconds: OIDC_TIMEOUT_SECONDS,
  });
  const signIn = new SsoSignIn({ ...deps, signup: config.SIGNUP, allowedDomains: config.OIDC_ALLOWED_DOMAINS });
  const links = new SsoLinks({
    identities: deps.identities,
    allowedDomains: config.OIDC_ALLOWED_DOMAINS,
    clock: deps.clock,
  });
  return { name: config.OIDC_NAME, provider, signIn, links };
}

/** SEAL_KEY; else SQLite's key file beside its database file; else (PostgreSQL, an in-memory SQLite) the database's key. */
function sealKeySource(config: Config): SealKeySource {
  if (config.SEAL_KEY.length > 0) return { kind: 'env', keys: config.SEAL_KEY };
  if (/^postgres(ql)?:\/\//i.test(config.DATABASE_URL)) return { kind: 'database' };
  const path = sqlitePath(config.DATABASE_URL);
  return path === ':memory:' ? { kind: 'database' } : { kind: 'file', path: keyFileOf(path) };
}

const warnOf =
  (config: Config) =>
  (line: string): void => {
    if (config.LOG_LEVEL !== 'silent') console.warn(`linkpix: ${line}`);
  };

/** The composition root: the one place that knows every adapter and wires it to the core. */
export function createContainer(config: Config, overrides: ContainerOverrides = {}): Container {
  const outageLog = overrides.outageLog ?? consoleOutageLog;
  const tuning = tuningOf(overrides.tuning);
  const storage = connect(config.DATABASE_URL, {
    schema: overrides.pgSchema,
    poolSize: config.DATABASE_POOL_SIZE,
    outageLog,
  });
  const clock = overrides.clock ?? systemClock;
  const sealKeys = new SealKeys({
    db: storage.db,
    engine: storage.engine,
    source: sealKeySource(config),
    warn: overrides.warn ?? warnOf(config),
    clock,
  });
  const urls = new UrlPolicy(config.URL_SCHEMES, config.APP_SCHEMES);
  const recordsOn = (db: Kysely<Database>) => ({
    links: new SqlLinkStore(db, storage.engine),
    pixels: new SqlPixelStore(db),
    spaces: new SqlSpaceStore(db),
    domains: new SqlDomainStore(db),
    tags: new SqlTagStore(db),
  });
  const stores = recordsOn(storage.db);
  const rollupMonths = new SqlRollupMonths(storage.db, storage.engine);
  const titles =
    overrides.titles !== undefined
      ? overrides.titles
      : config.TITLE_FETCH
        ? new HttpTitleFetcher({
            allowPrivate: config.OUTBOUND_ALLOW_PRIVATE,
            timeoutMs: tuning.TITLE_FETCH_TIMEOUT_MS,
          })
        : null;
  const visits = createVisitRuntime(config, tuning, storage, {
    onError: overrides.onError ?? ((e) => console.error('linkpix:', e)),
    outageLog,
    pgSchema: overrides.pgSchema,
  });
  const accounts = new SqlAccountStore(storage.db);
  // Every way a session ends goes through the store: its live stream hears of it at once (docs/adr/0058).
  const sessions = announcingEnds(new SqlSessionStore(storage.db), visits.sessionEnds);
  const reservedNames = new SqlReservedNames(storage.db);
  const claims = new NameClaims(stores.domains, reservedNames, [...visits.appHosts]);
  const timeoutMs = tuning.DOMAIN_VERIFICATION_TIMEOUT_MS;
  const domainChecks = overrides.domainChecks ?? [
    new DnsTxtCheck({ timeoutMs }),
    new HttpFileCheck({ timeoutMs, allowPrivate: config.OUTBOUND_ALLOW_PRIVATE }),
  ];
  // Called after the database write: with Redis away the write stands and is answered as
  // done; the count left behind expires with its key.
  const forgetQuota = (id: number) =>
    visits.quota.forget(id).catch((error: unknown) => {
      if (!(error instanceof UnavailableError)) throw error;
    });
  const shortUrls = { appUrl: config.APP_URL, domainScheme: config.DOMAIN_SCHEME };
  const hooks = createWebhookRuntime(
    config,
    tuning,
    storage,
    clock,
    (view) => linkRecord(view, shortUrls),
    recordsOn,
    overrides.onError ?? ((e) => console.error('linkpix: webhooks:', e)),
    overrides.webhooks,
  );
  // A person's own changes (keys, profile, password) and their entries in the personal workspace's log (docs/adr/0071).
  const accountUnit = unitOfWorkOn(storage.db, (trx) => ({
    store: new SqlAccountStore(trx),
    audit: new SqlAuditLog(trx),
  }));
  // A link change, its webhook deliveries and its audit entries commit together (docs/adr/0033, 0071).
  const unitOfWork = unitOfWorkOn(storage.db, (trx, afterCommit) => ({
    ...recordsOn(trx),
    onEvent: hooks.linkEventsOn(trx, afterCommit),
    audit: new SqlAuditLog(trx),
  }));
  const changes = { invalidation: visits.invalidation, forgetQuota, onEvent: hooks.onLinkEvent, unitOfWork };
  const defaultPrivacy = tuning.DEFAULT_STATS_PRIVACY === 0 ? 0 : 1;
  const links = new LinksService({ ...stores, clock, urls, titles, ...changes, defaultPrivacy });
  const importer = new LinkImporter({ ...stores, clock, urls, ...changes, defaultPrivacy });
  const qr = new QrRenderer({
    threads: tuning.QR_THREADS,
    queue: tuning.QR_QUEUE_MAX,
    cacheBytes: tuning.QR_CACHE_BYTES,
  });
  const images = new ImageThreads();
  const importSlots = new ImportSlots(
    new SqlImportLeases(storage.db),
    tuning.IMPORT_CONCURRENCY,
    () => clock.now(),
    (e) => console.error('linkpix: import lease:', e),
  );
  // 0: that limit is off.
  const windowLimiter = (name: string, max: number, windowSeconds: number) =>
    max === 0 ? undefined : visits.limiter({ name, max, windowSeconds });
  const signUpLimiter = (name: string, max: number) => windowLimiter(name, max, tuning.SIGNUP_LIMIT_WINDOW_SECONDS);
  // One pair of budgets for sign-ups and the profile's email changes (docs/adr/0047).
  const signUps = {
    perAddress: signUpLimiter(SIGN_UP_LIMITERS.perAddress, tuning.SIGNUP_LIMIT_PER_ADDRESS),
    perEmail: signUpLimiter(SIGN_UP_LIMITERS.perEmail, tuning.SIGNUP_LIMIT_PER_EMAIL),
  };
  const accountsService = new AccountsService(accounts, clock, {
    invalidation: visits.invalidation,
    forgetQuota,
    unit: accountUnit,
    signUps,
  });
  const hasher = new Argon2Hasher();
  const smtp = overrides.mailer
    ? null
    : config.SMTP_URL === null
      ? null
      : new SmtpMailer(config.SMTP_URL, config.MAIL_FROM);
  /** A real mail server (or the tests' stand-in): invitations are mailed only then. */
  const smtpOrOverride = overrides.mailer ?? smtp;
  const mailer = smtpOrOverride ?? new LogMailer((line) => console.warn(`linkpix: ${line}`));
  const verification =
    config.EMAIL_VERIFICATION === 'required'
      ? new EmailVerification({
          store: new SqlEmailVerificationStore(storage.db),
          accounts,
          mailer,
          appUrl: config.APP_URL,
          perAddress: visits.limiter(VERIFY_PER_ADDRESS),
          perEmail: visits.limiter(VERIFY_PER_EMAIL),
          onMailError: overrides.onError ?? ((e) => console.error('linkpix: a verification email was not sent:', e)),
          registration: unitOfWorkOn(storage.db, (trx) => ({
            accounts: new SqlAccountStore(trx),
            store: new SqlEmailVerificationStore(trx),
          })),
          clock,
        })
      : null;
  const signIn = new SignInService({
    accounts,
    sessions,
    hasher,
    perAccount: visits.limiter(SIGN_IN_PER_ACCOUNT),
    perAddress: visits.limiter(SIGN_IN_PER_ADDRESS),
    signUps,
    emailPending: verification ? (id) => verification.pending(id) : undefined,
    createAccount: verification ? (profile, hash, now) => verification.createUnverified(profile, hash, now) : undefined,
    unit: accountUnit,
    clock,
  });
  // One box for every secret kept sealed (two-factor seeds now, integrations' tokens later): docs/design/secrets.md.
  const secretBox = new SecretBox(sealKeys);
  const twoFactor = new TwoFactorService({
    store: new SqlTwoFactorStore(storage.db, secretBox),
    unit: unitOfWorkOn(storage.db, (trx) => ({
      store: new SqlTwoFactorStore(trx, secretBox),
      audit: new SqlAuditLog(trx),
    })),
    totp: new OtpauthTotp(),
    attempts: visits.limiter(TWO_FACTOR_ATTEMPTS),
    confirmPassword: (account, password, field) => signIn.confirmPassword(account, password, field),
    issuer: 'linkpix',
    clock,
  });
  const twoStep = new TwoStepSignIn({
    signIn,
    twoFactor,
    challenges: new SqlChallengeStore(storage.db),
    accounts,
    clock,
  });
  // One signer for the redirect and the conversions, its secret shared through the database.
  let clickIds: Promise<ClickIds> | null = null;
  const clickIdsOnce = () =>
    (clickIds ??= sharedSecret(storage.db, 'click-id').then(
      (secret) => new ClickIds(secret, config.CLICK_RETENTION_DAYS),
      (error: unknown) => {
        clickIds = null; // read again next time: the database may be back
        throw error;
      },
    ));
  const security: SecurityServices = {
    twoFactor,
    twoStep,
    sso: ssoOf(config, { identities: new SqlSsoIdentityStore(storage.db, storage.engine), accounts, twoStep, clock }),
    verification,
    resets: new PasswordResets({
      resets: new SqlPasswordResetStore(storage.db),
      accounts,
      sessions,
      challenges: new SqlChallengeStore(storage.db),
      hasher,
      mailer,
      appUrl: config.APP_URL,
      perAddress: visits.limiter(RESET_PER_ADDRESS),
      perEmail: visits.limiter(RESET_PER_EMAIL),
      onMailError: overrides.onError ?? ((e) => console.error('linkpix: a password reset email was not sent:', e)),
      unit: accountUnit,
      clock,
    }),
  };
  const workspaces = new WorkspacesService(new SqlWorkspaceStore(storage.db), accounts, clock, {
    deleteWorkspace: (id) => accountsService.deleteAccount(id),
    unitOfWork: unitOfWorkOn(storage.db, (trx) => ({
      store: new SqlWorkspaceStore(trx),
      accounts: new SqlAccountStore(trx),
      audit: new SqlAuditLog(trx),
    })),
    membershipsChanged: (userIds) => {
      for (const id of userIds) visits.sessionEnds.publish(id);
    },
    invitationLimits: {
      perInviter: windowLimiter(
        INVITATION_LIMITERS.perInviter,
        tuning.INVITE_LIMIT_PER_INVITER,
        tuning.INVITE_LIMIT_WINDOW_SECONDS,
      ),
      perWorkspace: windowLimiter(
        INVITATION_LIMITERS.perWorkspace,
        tuning.INVITE_LIMIT_PER_WORKSPACE,
        tuning.INVITE_LIMIT_WINDOW_SECONDS,
      ),
    },
    mail:
      smtpOrOverride === null
        ? null
        : {
            mailer: smtpOrOverride,
            appUrl: config.APP_URL,
            onError:
              overrides.onError ??
              ((e) => console.error('linkpix: an invitation email was not sent (the invitation stands):', e)),
          },
  });
  const domainUnit = unitOfWorkOn(storage.db, (trx) => ({
    store: new SqlDomainStore(trx),
    audit: new SqlAuditLog(trx),
  }));
  return {
    storage,
    tuning,
    sealKeys,
    linkClickCounts: storage.engine === 'postgres' ? new LinkClickCounts(storage.db) : null,
    visits,
    hooks,
    security,
    webhooks: hooks.service,
    clock,
    accounts: accountsService,
    signIn,
    workspaces,
    audit: new AuditService(new SqlAuditStore(storage.db), workspaces, clock, tuning.AUDIT_RETENTION_DAYS),
    links,
    importer,
    importSlots,
    urlSchemes: config.URL_SCHEMES,
    pixels: new PixelsService(
      stores.pixels,
      clock,
      visits.invalidation,
      unitOfWorkOn(storage.db, (trx) => ({ store: new SqlPixelStore(trx), audit: new SqlAuditLog(trx) })),
    ),
    spaces: new SpacesService(
      stores.spaces,
      clock,
      unitOfWorkOn(storage.db, (trx) => ({ store: new SqlSpaceStore(trx), audit: new SqlAuditLog(trx) })),
    ),
    tags: new TagsService(
      stores.tags,
      clock,
      unitOfWorkOn(storage.db, (trx) => ({ store: new SqlTagStore(trx), audit: new SqlAuditLog(trx) })),
    ),
    utmTemplates: new UtmTemplatesService(
      new SqlUtmTemplateStore(storage.db),
      clock,
      unitOfWorkOn(storage.db, (trx) => ({ store: new SqlUtmTemplateStore(trx), audit: new SqlAuditLog(trx) })),
    ),
    domains: new DomainsService({
      store: stores.domains,
      unit: domainUnit,
      clock,
      urls,
      claims,
      invalidation: visits.invalidation,
      verification: { required: config.DOMAIN_VERIFICATION === 'on', checks: domainChecks },
    }),
    domainOperator: new DomainOperator(
      stores.domains,
      reservedNames,
      claims,
      accounts,
      clock,
      visits.invalidation,
      domainUnit,
    ),
    stats: new StatsService({
      links: stores.links,
      stats: new SqlStatsStore(storage.db, storage.engine, rollupMonths, { now: () => clock.now() }),
      filtered: new SqlFilteredClickStore(storage),
      retention: new SqlClickRetention(storage.db, storage.engine),
      months: rollupMonths,
      clock,
      retentionDays: config.CLICK_RETENTION_DAYS,
      minCount: config.STATS_MIN_COUNT,
    }),
    clickIds: clickIdsOnce,
    conversions: new ConversionService({
      links: stores.links,
      store: new SqlConversionStore(storage),
      clickIds: clickIdsOnce,
      saveRules: (accountId, timeZone, linkId, rules, actor) =>
        links.update(accountId, timeZone, linkId, { rules }, actor),
      clock,
    }),
    clickExport: new ClickExportService({ links: stores.links, clicks: new SqlRawClickStore(storage), clock }),
    admin: new AdminService({
      store: new SqlAdminStore(storage.db),
      accounts,
      sessions,
      deleteAccount: (id) => accountsService.deleteAccount(id),
      invalidation: visits.invalidation,
      clock,
    }),
    rules: {
      explainer: new RuleExplainer({
        links: new SqlOwnedRedirectLinks(storage.db, storage.engine),
        clock,
        consentMode: config.PIXEL_CONSENT,
      }),
      preview: new RulePreview({ links: stores.links, clicks: new SqlReplayClickStore(storage), urls, clock }),
      countries: visits.countries,
    },
    urls: shortUrls,
    qr,
    qrLogos: new SqlQrLogoStore(storage.db),
    images,
    ping: async () => {
      await sql`select 1`.execute(storage.db);
    },
    redisUp: () => (visits.redis ? visits.redis.status === 'ready' : null),
    migrate: () => migrateToLatest(storage.db, storage.engine),
    close: async () => {
      await links.idle();
      await qr.close();
      await images.close();
      await hooks.stop();
      await visits.close();
      smtp?.close();
      await storage.close();
    },
  };
}
