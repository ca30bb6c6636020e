/** Whose data a table holds: people who follow links, or people who use the app. */
export type DataSubject = 'visitors' | 'people';

/** How long a table's rows stay: a setting's days, a fixed number of days, or as long as something else lives. */
export type Retention =
  | { kind: 'setting'; setting: 'CLICK_RETENTION_DAYS' | 'AUDIT_RETENTION_DAYS' }
  | { kind: 'days'; days: number }
  | { kind: 'while'; text: string };

export interface DataTable {
  table: string;
  subject: DataSubject;
  purpose: string;
  retention: Retention;
  /** Every column of the table and what it holds (a test holds this to both engines' schemas). */
  columns: Readonly<Record<string, string>>;
  /** PostgreSQL keeps the rows in these tables, read through a view of the table's name. */
  postgresParts?: readonly string[];
}

/** Visitor marks are needed only while their local day can still receive clicks (the retention job). */
export const VISITOR_MARK_DAYS = 2;

const WITH_LINK: Retention = { kind: 'while', text: 'as long as the link exists' };
const WITH_ACCOUNT: Retention = { kind: 'while', text: 'as long as the account exists' };
const WITH_WORKSPACE: Retention = { kind: 'while', text: 'as long as the workspace exists' };
const UNTIL_USED: Retention = {
  kind: 'while',
  text: 'until used or past its time; deleted when the person asks for the next one',
};

const ROLLUP = (period: string): Record<string, string> => ({
  link_id: 'the link',
  dimension: 'which count (total, country, browser …)',
  [period]: `the ${period}`,
  value: 'the counted value (a country code, a browser name …), never a visitor',
  count: 'how many clicks',
});

/**
 * Every table holding data about visits. The privacy page, /admin/data and `linkpix privacy
 * report` are built from this list, and test/integration/storage/privacy-schema.test.ts holds
 * it to the migrated schema of both engines.
 */
export const VISITOR_TABLES: readonly DataTable[] = [
  {
    table: 'clicks',
    subject: 'visitors',
    purpose: 'One row per visit that reached a destination (bots apart): the statistics and filters are read from it.',
    retention: { kind: 'setting', setting: 'CLICK_RETENTION_DAYS' },
    columns: {
      id: 'a number in order of arrival',
      link_id: 'the link followed',
      account_id: "the link's workspace",
      at: 'the time of the visit',
      country: 'the country of the address (offline lookup), two letters',
      city: 'the city of the address when the lookup knows it',
      browser: 'the browser family read from the User-Agent',
      platform: 'the operating system read from the User-Agent',
      device: 'desktop, mobile, tablet …',
      language: 'the first language of Accept-Language',
      referrer_host: 'the host name of the referring page, no path or query',
      is_bot: '1 for a known bot',
      rule: "the link's rule that decided the visit",
      variant: "the split's variant the visit got",
      qr: '1 when the visit came through a QR code',
    },
  },
  {
    table: 'click_visitors',
    subject: 'visitors',
    purpose: 'Unique visitors: one keyed hash per visitor, link and local day.',
    retention: { kind: 'days', days: VISITOR_MARK_DAYS },
    columns: {
      day: 'the local day',
      link_id: 'the link',
      visitor:
        'SHA-256 of a salt that changes every day, the link, the address and the User-Agent, cut to 132 bits; the same person gets unrelated hashes on other days and links',
    },
  },
  {
    table: 'conversions',
    subject: 'visitors',
    purpose: "A sale or sign-up the link's owner reported for a click id (links that track conversions).",
    retention: WITH_LINK,
    columns: {
      id: 'a number',
      link_id: 'the link',
      click_id: 'the lpx_cid the owner sent back',
      rule: 'the rule of the click',
      variant: 'the variant of the click',
      name: "the owner's name for it (sale, lead …)",
      value: 'an amount',
      currency: 'its currency',
      clicked_at: 'the time of the click',
      created_at: 'the time it was reported',
    },
  },
  {
    table: 'click_rollups',
    subject: 'visitors',
    purpose: 'Counts per link, local day and value: the statistics that outlive the raw clicks.',
    retention: WITH_LINK,
    columns: ROLLUP('day'),
    postgresParts: ['click_rollups_recent', 'click_rollups_settled'],
  },
  {
    table: 'click_rollup_months',
    subject: 'visitors',
    purpose: 'The daily counts of finished months, summed per month.',
    retention: WITH_LINK,
    columns: ROLLUP('month'),
  },
  {
    table: 'click_rollup_quarters',
    subject: 'visitors',
    purpose: 'The monthly counts of finished quarters, summed per quarter.',
    retention: WITH_LINK,
    columns: ROLLUP('quarter'),
  },
  {
    table: 'account_click_days',
    subject: 'visitors',
    purpose: "A workspace's clicks per day (the dashboard's chart).",
    retention: WITH_WORKSPACE,
    columns: { account_id: 'the workspace', day: 'the local day', count: 'how many clicks' },
  },
  {
    table: 'account_link_days',
    subject: 'visitors',
    purpose: "Each link's clicks per day, by workspace (the workspace analytics).",
    retention: WITH_WORKSPACE,
    columns: {
      account_id: 'the workspace',
      day: 'the local day',
      link_id: 'the link',
      clicks: 'how many clicks',
      qr: 'how many of them came through a QR code',
    },
  },
  {
    table: 'account_value_days',
    subject: 'visitors',
    purpose:
      "A workspace's clicks per day under each tag, space, UTM value and destination host of their links, and its QR scans (the workspace analytics).",
    retention: WITH_WORKSPACE,
    columns: {
      account_id: 'the workspace',
      day: 'the local day',
      name: 'the breakdown (tags, spaces, utm_source, …, qr)',
      value: "the link's tag, space, UTM value or host when the clicks were counted",
      clicks: 'how many clicks',
    },
  },
];

/** Every table holding data about the people who use the app (the operator's /admin/data). */
export const PEOPLE_TABLES: readonly DataTable[] = [
  {
    table: 'accounts',
    subject: 'people',
    purpose: 'Workspaces; a personal one carries its person’s name, email and password hash.',
    retention: WITH_ACCOUNT,
    columns: {
      id: 'a number',
      name: 'a name',
      email: 'the email address',
      timezone: 'a time zone',
      created_at: 'when made',
      password_hash: 'the password, hashed',
      is_admin: '1: an operator',
      suspended_at: 'when suspended',
      personal: "1: a person's own workspace",
      require_2fa: '1: members must use two-factor',
    },
  },
  {
    table: 'users',
    subject: 'people',
    purpose: 'People, beside their personal workspace.',
    retention: WITH_ACCOUNT,
    columns: { id: 'the person', created_at: 'when made', health_digest: '1: wants the broken-links digest' },
  },
  {
    table: 'memberships',
    subject: 'people',
    purpose: 'Who is in which workspace, with which role.',
    retention: WITH_WORKSPACE,
    columns: { workspace_id: 'the workspace', user_id: 'the person', role: 'the role', created_at: 'since when' },
  },
  {
    table: 'invitations',
    subject: 'people',
    purpose: 'Invitations to a workspace, by email.',
    retention: WITH_WORKSPACE,
    columns: {
      id: 'a number',
      workspace_id: 'the workspace',
      email: 'the email invited',
      role: 'the role offered',
      token_hash: "the invitation link's token, hashed",
      invited_by: 'who invited',
      created_at: 'when',
      expires_at: 'until when',
      accepted_at: 'when accepted',
      revoked_at: 'when revoked',
    },
  },
  {
    table: 'sessions',
    subject: 'people',
    purpose: 'Signed-in browsers: the account page lists them so a person can end one.',
    retention: {
      kind: 'while',
      text: 'until the session ends (a day, or 30 with "keep me signed in"); ended ones are deleted at the next sign-in',
    },
    columns: {
      id: 'a number',
      account_id: 'the workspace',
      token_hash: "the cookie's token, hashed",
      created_at: 'when signed in',
      last_seen_at: 'last use, to five minutes',
      expires_at: 'when it ends',
      user_agent: "the browser's User-Agent, shown to its owner",
      address: 'the address it signed in from, shown to its owner',
      user_id: 'the person',
    },
  },
  {
    table: 'api_keys',
    subject: 'people',
    purpose: 'API keys, hashed; their last use.',
    retention: WITH_ACCOUNT,
    columns: {
      id: 'a number',
      account_id: 'the workspace',
      name: 'a name',
      prefix: 'the first characters, to recognise it',
      key_hash: 'the key, hashed',
      created_at: 'when made',
      last_used_at: 'last use',
      revoked_at: 'when revoked',
      user_id: 'the person',
      scopes: 'what it may do',
      expires_at: 'until when',
    },
  },
  {
    table: 'user_totp',
    subject: 'people',
    purpose: "A person's two-factor secret, sealed.",
    retention: WITH_ACCOUNT,
    columns: {
      user_id: 'the person',
      secret_box: 'the secret, sealed',
      created_at: 'when set up',
      confirmed_at: 'when confirmed',
      last_step: 'the last code used',
    },
  },
  {
    table: 'user_recovery_codes',
    subject: 'people',
    purpose: 'Two-factor recovery codes, hashed.',
    retention: WITH_ACCOUNT,
    columns: { id: 'a number', user_id: 'the person', code_hash: 'the code, hashed', used_at: 'when used' },
  },
  {
    table: 'sign_in_challenges',
    subject: 'people',
    purpose: 'Between the password and the code of a two-factor sign-in.',
    retention: UNTIL_USED,
    columns: {
      id: 'a number',
      user_id: 'the person',
      token_hash: 'its token, hashed',
      remember: '"keep me signed in"',
      expires_at: 'until when',
    },
  },
  {
    table: 'password_resets',
    subject: 'people',
    purpose: 'Password reset links sent by email.',
    retention: UNTIL_USED,
    columns: {
      id: 'a number',
      user_id: 'the person',
      token_hash: 'its token, hashed',
      created_at: 'when sent',
      expires_at: 'until when',
      used_at: 'when used',
    },
  },
  {
    table: 'email_verifications',
    subject: 'people',
    purpose: 'Email address confirmation links.',
    retention: UNTIL_USED,
    columns: {
      id: 'a number',
      user_id: 'the person',
      token_hash: 'its token, hashed',
      created_at: 'when sent',
      expires_at: 'until when',
      used_at: 'when used',
    },
  },
  {
    table: 'unverified_emails',
    subject: 'people',
    purpose: 'People whose email address is not confirmed yet.',
    retention: { kind: 'while', text: 'until the address is confirmed' },
    columns: { user_id: 'the person', since: 'since when' },
  },
  {
    table: 'sso_identities',
    subject: 'people',
    purpose: "A person's single sign-on identity.",
    retention: WITH_ACCOUNT,
    columns: {
      issuer: 'the identity provider',
      subject: "the provider's id of the person",
      user_id: 'the person',
      created_at: 'when linked',
    },
  },
  {
    table: 'audit_entries',
    subject: 'people',
    purpose: 'Who changed what in a workspace (the audit log).',
    retention: { kind: 'setting', setting: 'AUDIT_RETENTION_DAYS' },
    columns: {
      id: 'a number',
      workspace_id: 'the workspace',
      at: 'when',
      user_id: 'the person',
      key_id: 'the API key used',
      via: 'web, API or CLI',
      action: 'what was done',
      target_type: 'to what kind of record',
      target_id: 'to which record',
      changes: 'the fields changed, secrets as "changed"',
    },
  },
  {
    table: 'link_history',
    subject: 'people',
    purpose: 'Every version of a link, with who made it.',
    retention: WITH_LINK,
    columns: {
      link_id: 'the link',
      account_id: 'the workspace',
      version: 'the version',
      at: 'when',
      user_id: 'the person',
      key_id: 'the API key used',
      via: 'web, API or CLI',
      restored_from: 'the version restored',
      changes: 'the fields changed',
      state: 'the link as it was',
    },
  },
  {
    table: 'link_schedules',
    subject: 'people',
    purpose: 'Changes of a link scheduled for later, with who scheduled them.',
    retention: WITH_LINK,
    columns: {
      id: 'a number',
      link_id: 'the link',
      account_id: 'the workspace',
      at: 'when it applies',
      changes: 'the fields to change',
      status: 'pending, done or failed',
      reason: 'why it failed',
      user_id: 'the person',
      key_id: 'the API key used',
      time_zone: 'the zone it was scheduled in',
      created_at: 'when scheduled',
      done_at: 'when applied',
    },
  },
  {
    table: 'health_digests',
    subject: 'people',
    purpose: 'Which broken-links digest a person was sent, a day.',
    retention: WITH_ACCOUNT,
    columns: { workspace_id: 'the workspace', user_id: 'the person', day: 'the UTC day', until: 'up to when it told' },
  },
  {
    table: 'first_steps_dismissals',
    subject: 'people',
    purpose: "Who dismissed the dashboard's first-run checklist, in which workspace.",
    retention: WITH_ACCOUNT,
    columns: { workspace_id: 'the workspace', user_id: 'the person', dismissed_at: 'when dismissed' },
  },
  {
    table: 'kept_imports',
    subject: 'people',
    purpose:
      "The file of a person's dry run on the import page, kept for the import they may confirm: a CSV or JSON of links, which may name people.",
    retention: { kind: 'while', text: 'an hour at most: removed when imported, replaced by the next dry run' },
    columns: {
      workspace_id: 'the workspace',
      user_id: 'the person',
      token_hash: 'the confirmation form’s token, hashed',
      format: 'the format chosen',
      on_conflict: 'what a taken alias does',
      bytes: 'the uploaded file, at most IMPORT_MAX_BYTES',
      created_at: 'when the dry run ran',
      expires_at: 'until when it may be imported',
    },
  },
];

/**
 * Tables that hold nothing about a person or a visit: links and their settings, counters,
 * leases and bookkeeping. The schema test fails on any table in neither list, so a new table is
 * placed on purpose.
 */
export const OTHER_TABLES: readonly string[] = [
  'account_link_counts',
  'app_secrets',
  'click_batches_pending',
  'click_claims',
  'click_spool_segments',
  'click_writers',
  'deleted_links',
  'domains',
  'import_leases',
  'import_person_leases',
  'integration_events',
  'integrations',
  'kysely_migration',
  'kysely_migration_lock',
  'link_card_images',
  'link_click_counts',
  'link_health',
  'link_pixels',
  'link_qr_logos',
  'link_search',
  'link_tags',
  'links',
  'pixels',
  'reserved_domains',
  'rollup_month_folds',
  'rotation_cursors',
  'spaces',
  'tags',
  'utm_templates',
  'webhook_deliveries',
  'webhooks',
];
