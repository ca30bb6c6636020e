import type { Generated } from 'kysely';

/** Table shapes as Kysely sees them. Instants are epoch milliseconds on both engines. */
export interface AccountsTable {
  id: Generated<number>;
  name: string;
  email: string;
  timezone: string;
  created_at: number;
  password_hash: string | null;
  is_admin: Generated<number>;
  suspended_at: number | null;
  /** 1: a person's own workspace (its id is the person's, docs/design/teams.md); 0: a team's. */
  personal: Generated<number>;
  require_2fa: Generated<number>;
}

export interface UsersTable {
  id: number;
  created_at: number;
  /** 1: the person gets the daily digest of newly broken links of the workspaces they administer (migration 0047). */
  health_digest: Generated<number>;
}

/** A broken-links digest claimed for a person, a workspace and a UTC day; `until`: the end of the window it told (migration 0047). */
export interface HealthDigestsTable {
  workspace_id: number;
  user_id: number;
  day: string;
  until: number;
}

/** A person who dismissed the dashboard's first-run checklist in a workspace (migration 0052). */
export interface FirstStepsDismissalsTable {
  workspace_id: number;
  user_id: number;
  dismissed_at: number;
}

/** A web dry run's file, kept for its confirmation (migration 0053): the token as its SHA-256, hex. */
export interface KeptImportsTable {
  workspace_id: number;
  user_id: number;
  token_hash: string;
  format: string;
  on_conflict: string;
  bytes: Uint8Array;
  created_at: number;
  expires_at: number;
}

export interface MembershipsTable {
  workspace_id: number;
  user_id: number;
  role: string;
  created_at: number;
}

export interface InvitationsTable {
  id: Generated<number>;
  workspace_id: number;
  email: string;
  role: string;
  token_hash: string;
  invited_by: number | null;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  revoked_at: number | null;
}

export interface SessionsTable {
  id: Generated<number>;
  account_id: number;
  token_hash: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  user_agent: string | null;
  address: string | null;
  user_id: number | null;
}

export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  name: string | null;
  prefix: string;
  key_hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  user_id: number | null;
  /** JSON array of scope names; null: every scope the role allows. */
  scopes: string | null;
  expires_at: number | null;
}

export interface SpacesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  name_key: string;
  color: number;
  created_at: number;
  updated_at: number;
}

export interface DomainsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  index_page: string | null;
  not_found_page: string | null;
  /** What the owner publishes to prove control of the name (migration 0005). */
  verification_token: string;
  /** Null while pending: a pending domain serves nothing, and its name stays free for others. */
  verified_at: number | null;
  /** The app-link files served on the domain's host, as JSON text (migration 0028): docs/design/domains.md. */
  apple_app_site_association: string | null;
  assetlinks: string | null;
  created_at: number;
  updated_at: number;
}

/** Names the operator keeps from every account (`linkpix domains reserve`). */
export interface ReservedDomainsTable {
  name: string;
  created_at: number;
}

export interface PixelsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  name_key: string;
  type: string;
  value: string;
  created_at: number;
  updated_at: number;
}

export interface LinksTable {
  id: Generated<number>;
  account_id: number;
  domain_id: number | null;
  space_id: number | null;
  alias: string;
  /** Lower-cased alias: uniqueness and lookups ignore case. */
  alias_key: string;
  url: string;
  /** The URL's values for the workspace breakdowns (migration 0054), null for none. */
  utm_source: Generated<string | null>;
  utm_medium: Generated<string | null>;
  utm_campaign: Generated<string | null>;
  destination_host: Generated<string | null>;
  title: string | null;
  target_type: number;
  country_target: string | null;
  platform_target: string | null;
  language_target: string | null;
  rotation_target: string | null;
  /** The link's rules as JSON (migration 0025), null for none: docs/design/rules.md. */
  rules: string | null;
  /** App links (migration 0028): docs/design/rules.md. */
  ios_url: string | null;
  android_url: string | null;
  /** A link preview's card and the destination's og: tags, JSON (migration 0051, docs/design/social-cards.md). */
  social_card: string | null;
  page_card: string | null;
  /** 1: the redirect adds a signed click id to the destination (migration 0033, docs/design/rules.md). */
  track_conversions: Generated<number>;
  last_rotation: Generated<number>;
  disabled: number;
  /** Set while an operator has taken the link down (disabled whatever its owner sets). */
  blocked_at: number | null;
  privacy: number;
  privacy_password_hash: string | null;
  password_hash: string | null;
  expiration_url: string | null;
  expiration_clicks: number | null;
  ends_at: number | null;
  clicks: Generated<number>;
  /** 1 once the link's link.expired was told (or it was expired when written): docs/design/webhooks.md. */
  expiry_told: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface TagsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** The name lowered: unique per account. */
  name_key: string;
  color: string;
  created_at: number;
  updated_at: number;
}

export interface LinkTagsTable {
  link_id: number;
  tag_id: number;
}

export interface LinkPixelsTable {
  link_id: number;
  pixel_id: number;
}

export interface ClicksTable {
  id: Generated<number>;
  link_id: number;
  account_id: number;
  at: number;
  country: string | null;
  city: string | null;
  browser: string | null;
  platform: string | null;
  device: string | null;
  language: string | null;
  referrer_host: string | null;
  is_bot: number;
  /** The rule and split variant that decided the visit (migration 0033); null: none. */
  rule?: number | null;
  variant?: number | null;
  /** 1: the visit came through a QR code (`qr=1` on the short URL; migration 0050). */
  qr?: number;
}

/** One conversion per click id and name (docs/design/rules.md). */
export interface ConversionsTable {
  id: Generated<number>;
  link_id: number;
  click_id: string;
  rule: number | null;
  variant: number | null;
  name: string;
  value: number | null;
  currency: string | null;
  clicked_at: number;
  created_at: number;
}

export interface DeletedLinksTable {
  link_id: number;
}

/** Clicks per link, local day, dimension and value (core/stats/dimensions.ts); '' is "not known". */
export interface ClickRollupsTable {
  link_id: number;
  dimension: string;
  day: string;
  value: string;
  count: number;
}

/** The daily rollups of finished months, summed per month (migration 0019). */
export interface ClickRollupMonthsTable {
  link_id: number;
  dimension: string;
  month: string;
  value: string;
  count: number;
}

/** The monthly rollups of whole folded quarters, summed per quarter, keyed by its first month (migration 0034). */
export interface ClickRollupQuartersTable {
  link_id: number;
  dimension: string;
  quarter: string;
  value: string;
  count: number;
}

/** How far the monthly rollups have been folded (one row, id 1; migration 0019). */
export interface RollupMonthFoldsTable {
  id: number;
  folded_before: string;
  pass_to: string | null;
  pass_last_link_id: number | null;
  through_link_id: number | null;
}

/** An account's clicks per day (its links' `total` rollups), kept by triggers (migration 0010). */
/** Each link's human clicks and QR scans a local day, keyed by its workspace first (migration 0050). */
export interface AccountLinkDaysTable {
  account_id: number;
  day: string;
  link_id: number;
  clicks: number;
  qr: number;
}

export interface AccountValueDaysTable {
  account_id: number;
  day: string;
  /** tags, spaces, utm_source, utm_medium, utm_campaign, destinations, qr (migration 0054). */
  name: string;
  /** '' for none; for `qr`, 'qr' (scans) or '' (every click). */
  value: string;
  clicks: number;
}

export interface AccountClickDaysTable {
  account_id: number;
  day: string;
  count: number;
}

/** An account's links by space, domain and disabled flag (0: none), kept by triggers (migration 0014). */
export interface AccountLinkCountsTable {
  account_id: number;
  space_id: number;
  domain_id: number;
  disabled: number;
  /** links.expiry_told: 1 for links the expiry sweep found expired (migration 0016). */
  expiry_told: number;
  count: number;
}

/** First visits per local day (unique visitors): a keyed hash, kept two days. */
export interface ClickVisitorsTable {
  day: string;
  link_id: number;
  visitor: string;
}

/** A click cap counted in the database while Redis is away (migration 0011). */
export interface ClickClaimsTable {
  link_id: number;
  claimed: number;
  /** 1 while instances without Redis claim here; 0 once one with Redis took the count back. */
  open: number;
  closed_at: number | null;
}

/** A rotation's last position served, held here only while Redis is away (migration 0011). */
export interface RotationCursorsTable {
  link_id: number;
  position: number;
}

/** A click writer's lease: while it runs, its pending batches are its own (migration 0013). */
export interface ClickWritersTable {
  owner: string;
  lease_until: number;
}

/**
 * A batch whose click rows are written and whose rollups are not yet (migration 0013). SQLite:
 * the ids first..last; PostgreSQL: also `click_ids` (an array, not typed here; read in SQL).
 */
export interface ClickBatchesPendingTable {
  id: Generated<number>;
  owner: string;
  first_click_id: number;
  last_click_id: number;
}

/** A click spool segment whose rows are written (migration 0046). */
export interface ClickSpoolSegmentsTable {
  id: string;
  written_at: number;
}

/** Clicks of uncapped links counted since their last settle into links.clicks, and the last rotation position since (migration 0040). */
export interface LinkClickCountsTable {
  link_id: number;
  clicks: number;
  last_rotation: number | null;
}

/** The account's import under way, and until when its holder has it (migration 0021). */
export interface ImportLeasesTable {
  account_id: number;
  holder: string;
  lease_until: number;
}

/** The person's import under way, in any workspace, and until when its holder has it (migration 0042). */
export interface ImportPersonLeasesTable {
  person_id: number;
  holder: string;
  lease_until: number;
}

/** A link's QR logo: a PNG or a sanitised SVG (migration 0024). */
export interface LinkQrLogosTable {
  link_id: number;
  type: 'png' | 'svg';
  bytes: Uint8Array;
  created_at: number;
}

/** A link preview's uploaded image (migration 0051): a PNG re-encoded in the image thread (no JPEG is read today). */
export interface LinkCardImagesTable {
  link_id: number;
  type: 'png' | 'jpeg';
  bytes: Uint8Array;
  created_at: number;
}

export interface AppSecretsTable {
  name: string;
  value: string;
}

/** A person's TOTP secret, sealed (migration 0027); confirmed_at null while enrolling. */
export interface UserTotpTable {
  user_id: number;
  secret_box: string;
  created_at: number;
  confirmed_at: number | null;
  last_step: number | null;
}

export interface UserRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: number | null;
}

/** Between the password and the code of a two-factor sign-in (migration 0027). */
export interface SignInChallengesTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  remember: number;
  expires_at: number;
}

export interface SsoIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: number;
  created_at: number;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface UnverifiedEmailsTable {
  user_id: number;
  since: number;
}

/** A link's destination health and its place in the checks' rounds (migration 0043, docs/design/health.md). */
export interface LinkHealthTable {
  link_id: number;
  /** The destination checked; a link whose url differs reads unknown. */
  url: string | null;
  status: string;
  code: number | null;
  reason: string | null;
  checked_at: number | null;
  broken_since: number | null;
  next_check_at: number;
  lease_holder: string | null;
  lease_until: number | null;
}

export interface EmailVerificationsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface Database {
  clicks: ClicksTable;
  conversions: ConversionsTable;
  click_rollups: ClickRollupsTable;
  click_rollup_months: ClickRollupMonthsTable;
  click_rollup_quarters: ClickRollupQuartersTable;
  rollup_month_folds: RollupMonthFoldsTable;
  click_visitors: ClickVisitorsTable;
  account_click_days: AccountClickDaysTable;
  account_link_days: AccountLinkDaysTable;
  account_value_days: AccountValueDaysTable;
  account_link_counts: AccountLinkCountsTable;
  /** SQLite only: links deleted since the retention job last swept their click rows (migration 0004). */
  deleted_links: DeletedLinksTable;
  app_secrets: AppSecretsTable;
  accounts: AccountsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  invitations: InvitationsTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  spaces: SpacesTable;
  domains: DomainsTable;
  reserved_domains: ReservedDomainsTable;
  pixels: PixelsTable;
  links: LinksTable;
  link_health: LinkHealthTable;
  health_digests: HealthDigestsTable;
  first_steps_dismissals: FirstStepsDismissalsTable;
  kept_imports: KeptImportsTable;
  link_pixels: LinkPixelsTable;
  tags: TagsTable;
  link_tags: LinkTagsTable;
  click_claims: ClickClaimsTable;
  rotation_cursors: RotationCursorsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  click_writers: ClickWritersTable;
  click_batches_pending: ClickBatchesPendingTable;
  click_spool_segments: ClickSpoolSegmentsTable;
  link_click_counts: LinkClickCountsTable;
  import_leases: ImportLeasesTable;
  import_person_leases: ImportPersonLeasesTable;
  utm_templates: UtmTemplatesTable;
  link_qr_logos: LinkQrLogosTable;
  link_card_images: LinkCardImagesTable;
  user_totp: UserTotpTable;
  user_recovery_codes: UserRecoveryCodesTable;
  sign_in_challenges: SignInChallengesTable;
  password_resets: PasswordResetsTable;
  sso_identities: SsoIdentitiesTable;
  unverified_emails: UnverifiedEmailsTable;
  email_verifications: EmailVerificationsTable;
  audit_entries: AuditEntriesTable;
  link_history: LinkHistoryTable;
  link_schedules: LinkSchedulesTable;
  integrations: IntegrationsTable;
  integration_events: IntegrationEventsTable;
}

/** A workspace's integration (migration 0048): the token and the sender's secret sealed, the token also as its digest. */
export interface IntegrationsTable {
  id: Generated<number>;
  account_id: number;
  type: string;
  token_digest: string;
  token_box: string;
  secret_box: string;
  created_at: number;
}

/** The sender's event ids an integration has taken: one row each, so a repeat records nothing. */
export interface IntegrationEventsTable {
  integration_id: number;
  event_id: string;
  created_at: number;
}

export interface AuditEntriesTable {
  id: Generated<number>;
  workspace_id: number;
  at: number;
  user_id: number | null;
  key_id: number | null;
  via: string;
  action: string;
  target_type: string;
  target_id: number;
  /** JSON: `{"field": [old, new]}`, a secret's value "changed". */
  changes: string;
}

/** Every version of a link for its whole life (migration 0044, docs/design/history.md); deleted with the link. */
export interface LinkHistoryTable {
  link_id: number;
  account_id: number;
  version: number;
  at: number;
  user_id: number | null;
  key_id: number | null;
  via: string;
  restored_from: number | null;
  /** JSON: the diff to the previous version, `{"field": [old, new]}`, a secret's value "changed". */
  changes: string;
  /** JSON: the link's settable fields and pixels after this version (core/links/link-history.ts LinkState). */
  state: string;
}

/** Scheduled changes of links (migration 0045, docs/design/history.md); deleted with the link. */
export interface LinkSchedulesTable {
  id: Generated<number>;
  link_id: number;
  account_id: number;
  at: number;
  /** JSON: the update's input as it was sent (API names), no password. */
  changes: string;
  /** pending, applied, failed or cancelled: leaves pending once (a conditional update). */
  status: string;
  reason: string | null;
  user_id: number | null;
  key_id: number | null;
  time_zone: string;
  created_at: number;
  done_at: number | null;
}

export interface WebhooksTable {
  id: Generated<number>;
  account_id: number;
  url: string;
  /** Comma-separated event names. */
  events: string;
  /** How deliveries are written: 'json' or 'slack' (WEBHOOK_FORMATS). */
  format: Generated<string>;
  secret: string;
  created_at: number;
  failing_since: number | null;
  disabled_at: number | null;
  /** 1 once the account was told of disabled_at (an API answer's linkpix-webhooks-disabled header). */
  disabled_told: Generated<number>;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  delivery_id: string;
  webhook_id: number;
  event: string;
  link_id: number | null;
  body: string;
  created_at: number;
  next_at: number;
  lease_until: number | null;
  attempts: Generated<number>;
  last_error: string | null;
}

export interface UtmTemplatesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** The name lower-cased: unique per account. */
  name_key: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  utm_term: string;
  utm_content: string;
  created_at: number;
  updated_at: number;
}
