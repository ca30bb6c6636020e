import { parseSealKeys } from '../adapters/secrets/seal-key.ts';

/**
 * Every environment variable linkpix reads, with its default and a line of doc. Read once at
 * start, validated, and turned into a plain options object; nothing else reads process.env.
 */
type Parser<T> = (raw: string) => T;

type Env = Record<string, string | undefined>;

interface Entry<T> {
  /** The value when the variable is not set; a function when it follows another variable. */
  default: string | ((env: Env) => string);
  doc: string;
  parse: Parser<T>;
  /** A key: a refusal never echoes its value (the message reaches logs). */
  secret?: true;
}

const int =
  (min: number, max: number): Parser<number> =>
  (raw) => {
    if (!/^-?\d+$/.test(raw.trim())) throw new Error(`must be an integer between ${min} and ${max}`);
    const n = Number(raw);
    if (n < min || n > max) throw new Error(`must be an integer between ${min} and ${max}`);
    return n;
  };

const bool: Parser<boolean> = (raw) => {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
  throw new Error('must be true or false');
};

const oneOf =
  <T extends string>(...values: T[]): Parser<T> =>
  (raw) => {
    if ((values as string[]).includes(raw)) return raw as T;
    throw new Error(`must be one of ${values.join(', ')}`);
  };

const absoluteUrl: Parser<string> = (raw) => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('must be an absolute http(s) URL, like http://localhost:8080');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('must be an http(s) URL');
  return url.origin + url.pathname.replace(/\/+$/, '');
};

const smtpUrl: Parser<string | null> = (raw) => {
  if (raw.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error('must be smtp://… or smtps://…');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error('must be smtp://… or smtps://…');
  return url.href;
};

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** An issuer is compared by its exact text (OpenID Connect Discovery 1.0, 4.3): kept as typed. */
const oidcIssuer: Parser<string | null> = (raw) => {
  const s = raw.trim();
  if (s === '') return null;
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    throw new Error('must be an absolute https URL, like https://accounts.example.com');
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))) return s;
  throw new Error('must be an https URL (http only on a loopback address)');
};

const databaseUrl: Parser<string> = (raw) => {
  if (/^(postgres(ql)?:\/\/|sqlite:|file:)/i.test(raw)) return raw;
  throw new Error('must start with postgres://, postgresql://, sqlite: or file:');
};

const list: Parser<string[]> = (raw) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

// Schemes that run code or read local data in a browser, or (Android's intent:) open any app
// the link names: never an app's, whatever an operator lists. Links stored with one keep
// working and are named by the start's warning (docs/design/app-schemes.md).
const UNSAFE_SCHEMES = new Set(['javascript', 'data', 'vbscript', 'file', 'blob', 'about', 'http', 'https', 'intent']);

const appSchemes: Parser<string[]> = (raw) => {
  const schemes = list(raw).map((s) => s.toLowerCase().replace(/:$/, ''));
  for (const s of schemes) {
    if (!/^[a-z][a-z0-9+.-]*$/.test(s)) throw new Error(`${s} is not a URL scheme`);
    if (UNSAFE_SCHEMES.has(s)) throw new Error(`${s} cannot be an app scheme`);
  }
  return schemes;
};

const trustProxy: Parser<boolean | number | string> = (raw) => {
  const v = raw.trim();
  if (/^\d+$/.test(v)) return Number(v);
  try {
    return bool(v);
  } catch {
    return v; // a list of trusted addresses or CIDRs, as Fastify takes it
  }
};

const CATALOGUE = {
  PORT: { default: '8080', doc: 'TCP port to listen on.', parse: int(0, 65535) },
  HOST: { default: '0.0.0.0', doc: 'Address to listen on.', parse: (s: string) => s },
  APP_URL: {
    // Short links work on the machine itself out of the box, whatever the port (a bad PORT is
    // reported as such, not as this).
    default: (env: Env) => {
      const port = env.PORT?.trim() ?? '';
      return `http://localhost:${/^\d+$/.test(port) ? port : '8080'}`;
    },
    doc: "Public base URL of the app; short_url, and the links in exports and webhooks, are built on it (never on a request's Host). Unset: http://localhost:{PORT}.",
    parse: absoluteUrl,
  },
  DATABASE_URL: { default: 'sqlite:./data/linkpix.db', doc: 'sqlite:<file> (embedded, default) or postgres://user@host/db.', parse: databaseUrl },
  DATABASE_POOL_SIZE: { default: '10', doc: "PostgreSQL connections per instance (the click writer's thread has two more of its own).", parse: int(1, 500) },
  LOG_LEVEL: { default: 'info', doc: 'fatal, error, warn, info, debug, trace or silent.', parse: oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent') },
  TRUST_PROXY: { default: 'false', doc: 'Honour X-Forwarded-* from: false, true, a hop count, or addresses/CIDRs.', parse: trustProxy },
  API_RATE_LIMIT: { default: '120', doc: 'API requests per key per window; 0 turns the limit off.', parse: int(0, 1_000_000) },
  API_RATE_WINDOW_SECONDS: { default: '60', doc: 'Length of the API rate-limit window.', parse: int(1, 86_400) },
  WEB_RATE_LIMIT: {
    default: '600',
    doc: "Web app requests (pages and form posts; not its assets, nor the visitors' redirect) per signed-in account, or per client address signed out, per window; 0 turns the limit off.",
    parse: int(0, 1_000_000),
  },
  WEB_RATE_WINDOW_SECONDS: { default: '60', doc: 'Length of the web app rate-limit window.', parse: int(1, 86_400) },
  BODY_LIMIT_BYTES: { default: '65536', doc: 'Largest request body accepted; larger answers 413.', parse: int(1024, 10_485_760) },
  BULK_BODY_LIMIT_BYTES: {
    default: '4194304',
    doc: 'Largest body of a bulk create (POST /api/v1/links/bulk, up to 1 000 links); larger answers 413.',
    parse: int(1024, 67_108_864),
  },
  IMPORT_MAX_BYTES: {
    default: '52428800',
    doc: 'Largest file an import takes (POST /api/v1/links/import, linkpix import); larger is refused before it is read.',
    parse: int(1024, 1_073_741_824),
  },
  IMPORT_CONCURRENCY: {
    default: '2',
    doc: 'Imports one instance runs at once (each reads its file in a thread of its own); more answer 429. An account runs one at a time across instances.',
    parse: int(1, 64),
  },
  URL_SCHEMES: { default: 'http,https', doc: 'Schemes a link may point to, comma-separated.', parse: list },
  APP_SCHEMES: {
    default: '',
    doc: "Custom app schemes (myapp) a link's or a rule's ios_url / android_url may use besides https, comma-separated; such a link opens through a small page that falls back to the web URL.",
    parse: appSchemes,
  },
  DOMAIN_SCHEME: { default: 'https', doc: 'Scheme of short_url on custom domains.', parse: oneOf('http', 'https') },
  DOMAIN_VERIFICATION: {
    default: 'on',
    doc: 'on: a new custom domain serves only once its owner proves control (DNS TXT or HTTP file); off: at once, first come first served (only trusted people add domains).',
    parse: oneOf('on', 'off'),
  },
  DOMAIN_VERIFICATION_ALLOW_PRIVATE: { default: 'false', doc: 'Let the HTTP check of a domain reach private, loopback and link-local addresses.', parse: bool },
  DOMAIN_VERIFICATION_TIMEOUT_MS: { default: '5000', doc: 'Give up each check of a domain (DNS, HTTP) after this long.', parse: int(100, 30_000) },
  TITLE_FETCH: { default: 'true', doc: 'Fetch a page title in the background when a link has none.', parse: bool },
  TITLE_FETCH_ALLOW_PRIVATE: { default: 'false', doc: 'Let the title fetch reach private, loopback and link-local addresses.', parse: bool },
  TITLE_FETCH_TIMEOUT_MS: { default: '5000', doc: 'Give up a title fetch after this long.', parse: int(100, 60_000) },
  WEBHOOK_ALLOW_PRIVATE: { default: 'false', doc: 'Let webhooks target private, loopback and link-local addresses.', parse: bool },
  WEBHOOK_TIMEOUT_MS: { default: '10000', doc: 'A webhook delivery attempt that has no complete answer after this long failed.', parse: int(100, 120_000) },
  WEBHOOK_POLL_MS: { default: '1000', doc: 'How often each instance looks for webhook deliveries due (a change made here is sent at once).', parse: int(50, 60_000) },
  WEBHOOK_EXPIRY_SWEEP_MS: {
    default: '10000',
    doc: 'How often each instance looks for links that expired since (past their date, or their click cap reached) to send link.expired.',
    parse: int(50, 3_600_000),
  },
  WEBHOOK_LEASE_MS: {
    default: '60000',
    doc: 'How long a delivery claimed by an instance is its own; past it (the instance died) another sends it. Longer than WEBHOOK_TIMEOUT_MS.',
    parse: int(1000, 3_600_000),
  },
  QR_THREADS: {
    default: '1',
    doc: 'Threads that draw PNG QR codes off the event loop (each started when first needed, stopped after a minute idle).',
    parse: int(1, 64),
  },
  QR_QUEUE_MAX: { default: '32', doc: 'PNG QR codes waiting for a thread at most; past it a request answers 503 with Retry-After.', parse: int(0, 10_000) },
  QR_CACHE_BYTES: { default: '8388608', doc: 'Bytes of drawn PNG QR codes kept for their next request (an LRU); 0: none kept.', parse: int(0, 1_073_741_824) },
  REDIRECT_STATUS: { default: '302', doc: 'HTTP status of the redirect: 301, 302, 307 or 308.', parse: oneOf('301', '302', '307', '308') },
  REQUEST_TIMEOUT_MS: {
    default: '30000',
    doc: 'A request (head and body) must arrive within this long, its head within this long or 60 s if less; then 408 and the connection closes.',
    parse: int(1000, 600_000),
  },
  SIGNUP: { default: 'open', doc: 'Who may make an account in the web app: open (anyone, at /signup) or closed (the CLI only).', parse: oneOf('open', 'closed') },
  SIGNUP_LIMIT_PER_ADDRESS: {
    default: '10',
    doc: 'Sign-up tries (made or refused) from one client address per SIGNUP_LIMIT_WINDOW_SECONDS, shared through Redis; 0 turns the limit off.',
    parse: int(0, 1_000_000),
  },
  SIGNUP_LIMIT_PER_EMAIL: {
    default: '5',
    doc: 'Sign-up tries for one email per SIGNUP_LIMIT_WINDOW_SECONDS, from any address; 0 turns the limit off.',
    parse: int(0, 1_000_000),
  },
  SMTP_URL: {
    default: '',
    doc: 'The mail server for password reset emails: smtp://user:password@host:587 (STARTTLS when offered) or smtps://… (TLS from the start). Empty: no email is sent (a line says so in the log) and `linkpix users reset-link EMAIL` makes reset links.',
    parse: smtpUrl,
  },
  EMAIL_VERIFICATION: {
    default: 'off',
    doc: 'off: a sign-up signs in at once; required: it is mailed a single-use link (24 h) and cannot sign in until it opens it (needs SMTP_URL).',
    parse: oneOf('off', 'required'),
  },
  MAIL_FROM: { default: 'linkpix <no-reply@localhost>', doc: 'The From of the emails linkpix sends.', parse: (s: string) => s.trim() },
  SIGNUP_LIMIT_WINDOW_SECONDS: { default: '3600', doc: 'The window of the sign-up limits, opened by its first try.', parse: int(1, 604_800) },
  INVITE_LIMIT_PER_INVITER: {
    default: '20',
    doc: 'Invitations one person may make per INVITE_LIMIT_WINDOW_SECONDS, in any workspace, shared through Redis; 0 turns the limit off.',
    parse: int(0, 1_000_000),
  },
  INVITE_LIMIT_PER_WORKSPACE: {
    default: '50',
    doc: 'Invitations one workspace may make per INVITE_LIMIT_WINDOW_SECONDS, by any of its admins; 0 turns the limit off.',
    parse: int(0, 1_000_000),
  },
  INVITE_LIMIT_WINDOW_SECONDS: { default: '3600', doc: 'The window of the invitation limits, opened by its first invitation.', parse: int(1, 604_800) },
  OIDC_ISSUER: {
    default: '',
    doc: "Single sign-on (OpenID Connect): the provider's issuer URL, https (http only on a loopback address); set with OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, or none of them. Discovery happens at the first sign-in, not at start.",
    parse: oidcIssuer,
  },
  OIDC_CLIENT_ID: {
    default: '',
    doc: 'The client id linkpix has at the OpenID provider (its redirect URI is APP_URL/login/sso/callback).',
    parse: (s: string) => s.trim(),
  },
  OIDC_CLIENT_SECRET: { default: '', doc: 'The client secret linkpix has at the OpenID provider.', parse: (s: string) => s.trim() },
  SEAL_KEY: {
    default: '',
    doc: "The key that seals secrets at rest (two-factor seeds, integrations' tokens), kept out of the database so a copy of it cannot open them: 32 random bytes in base64url (`linkpix seal-key new`); several, comma-separated, the first sealing, while moving to a new one. Unset: on SQLite a key file beside the database file (made at the first start); on PostgreSQL the database's own key, with a warning (every instance must have the same SEAL_KEY).",
    parse: parseSealKeys,
    secret: true,
  },
  OIDC_ALLOWED_DOMAINS: {
    default: '',
    doc: 'Comma list of email domains that may sign in through the provider (example.com, example.org); empty: any.',
    parse: (s: string) => list(s).map((d) => d.toLowerCase().replace(/^@/, '')),
  },
  OIDC_NAME: { default: '', doc: 'The provider\'s name on the "Sign in with …" button; empty: single sign-on.', parse: (s: string) => s.trim().slice(0, 60) },
  PIXEL_CONSENT: { default: 'ask', doc: 'Tracking pixels: ask (once, remembered 30 days), implied, or never.', parse: oneOf('ask', 'implied', 'never') },
  GEOIP_DATABASE: { default: '', doc: 'Path to a country .mmdb (DB-IP or MaxMind format); empty: the bundled DB-IP Lite.', parse: (s: string) => s.trim() },
  REDIS_URL: {
    default: '',
    doc: 'redis://… to share click caps, rotation, password attempts and cache invalidation across instances.',
    parse: (s: string) => {
      if (s !== '' && !/^rediss?:\/\//.test(s)) throw new Error('must start with redis:// or rediss://');
      return s;
    },
  },
  REDIS_PREFIX: {
    default: 'linkpix:',
    doc: 'Prepended to every Redis key and channel, so several deployments can share one Redis; empty means linkpix:.',
    parse: (s: string) => {
      if (/\s/.test(s)) throw new Error('must not contain spaces');
      return s === '' ? 'linkpix:' : s;
    },
  },
  LINK_CACHE_TTL_MS: {
    default: '300000',
    doc: 'How long at most the redirect serves a cached link without reading it again (each entry a random half to all of it).',
    parse: int(0, 3_600_000),
  },
  LINK_CACHE_SIZE: {
    default: '100000',
    doc: 'Links kept in the redirect cache (unknown aliases are kept apart, at most the smaller of this and 10 000).',
    parse: int(0, 10_000_000),
  },
  LINK_CACHE_WARM: {
    default: '10000',
    doc: 'After a start, in the background, the redirect cache loads this many of the links most visited over the last days (at most LINK_CACHE_SIZE); 0: none.',
    parse: int(0, 10_000_000),
  },
  CLICK_FLUSH_INTERVAL_MS: { default: '1000', doc: 'Clicks are written in batches at least this often.', parse: int(10, 60_000) },
  STATS_FLUSH_INTERVAL_MS: {
    default: '15000',
    doc: "Statistics rollups and the links' click counters (but a capped link's, written with its click rows) are summed in memory and written this often under heavy traffic (with every batch while fewer than 1 000 rows wait), and on every flush and stop. 0: with every click batch.",
    parse: int(0, 600_000),
  },
  CLICK_COUNT_SETTLE_INTERVAL_MS: {
    default: '60000',
    doc: "PostgreSQL: the links' click counters the statistics window adds to are settled into the links this often. Every count shown is exact meanwhile; only the order of a list sorted by clicks may lag by this much.",
    parse: int(1000, 86_400_000),
  },
  CLICK_WRITER_LEASE_MS: {
    default: '30000',
    doc: "An instance renews its lease on its written click batches every third of this; once one has not for this long (a kill -9), any instance rolls up the statistics and the links' counters of its batches from their click rows.",
    parse: int(1000, 3_600_000),
  },
  DEFAULT_STATS_PRIVACY: {
    default: '1',
    doc: "Statistics page of a link made without a privacy (API, web form's first choice, imports that carry none): 1 private, 0 public (phpShort's default).",
    parse: (s: string) => (int(0, 1)(s) === 0 ? 0 : 1),
  },
  STATS_MIN_COUNT: {
    default: '5',
    doc: 'On public statistics pages and their CSV, values with fewer clicks than this are shown together as "Other" (the owner sees them all); 1: never.',
    parse: int(1, 1_000_000),
  },
  AUDIT_RETENTION_DAYS: {
    default: '365',
    doc: "A workspace's audit log entries are deleted after this many days, by the job that prunes clicks.",
    parse: int(1, 36_500),
  },
  CLICK_RETENTION_DAYS: { default: '90', doc: 'Raw click rows are deleted after this many days (statistics stay); 0 keeps them forever.', parse: int(0, 36_500) },
  CLICK_BUFFER_MAX: {
    default: '100000',
    doc: 'Clicks held in memory at most while the database is away (or slower than the visits); past it newer clicks are dropped (counted and logged).',
    parse: int(1000, 10_000_000),
  },
  CLICK_BATCH_SIZE: {
    default: '1000',
    doc: 'Clicks handed to the writer thread at once; the thread writes everything due in one transaction.',
    parse: int(1, 50_000),
  },
  METRICS_TOKEN: {
    default: '',
    doc: 'Serve GET /metrics (Prometheus) on the app\'s port to whoever sends "Authorization: Bearer <this>" (16 characters or more); empty: not there.',
    parse: (s: string) => {
      const token = s.trim();
      if (token === '') return null;
      if (token.length < 16 || /\s/.test(token)) throw new Error('must be 16 characters or more, without spaces');
      return token;
    },
  },
  METRICS_PORT: {
    default: '',
    doc: 'Serve GET /metrics on this port of its own instead (on METRICS_HOST; METRICS_TOKEN is asked there too when set); empty: not on a port of its own.',
    parse: (s: string) => (s.trim() === '' ? null : int(1, 65535)(s)),
  },
  METRICS_HOST: { default: '127.0.0.1', doc: 'Address the METRICS_PORT listens on.', parse: (s: string) => s.trim() },
  SHUTDOWN_TIMEOUT_MS: { default: '10000', doc: 'On SIGTERM, how long requests in flight may take to finish.', parse: int(0, 600_000) },
} satisfies Record<string, Entry<unknown>>;

type Catalogue = typeof CATALOGUE;
export type Config = { [K in keyof Catalogue]: ReturnType<Catalogue[K]['parse']> };

export class ConfigError extends Error {}

/** Validates every variable and reports all bad ones at once, each by name. */
export function loadConfig(env: Env): Config {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, entry] of Object.entries(CATALOGUE) as [string, Entry<unknown>][]) {
    const raw = env[name] ?? (typeof entry.default === 'function' ? entry.default(env) : entry.default);
    try {
      out[name] = entry.parse(raw);
    } catch (error) {
      problems.push(`${entry.secret ? `${name} (its value not shown)` : `${name}=${JSON.stringify(raw)}`}: ${(error as Error).message}`);
    }
  }
  problems.push(...allOrNone(env, ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET']));
  // A verification mail that can never leave would lock every sign-up out.
  if (out.EMAIL_VERIFICATION === 'required' && out.SMTP_URL === null && !problems.some((p) => p.startsWith('SMTP_URL='))) {
    problems.push('EMAIL_VERIFICATION=required needs SMTP_URL: a mail server to send the verification links.');
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return out as Config;
}

/** Variables that only work together: some set and not the others is a mistake, named by what is missing. */
function allOrNone(env: Env, names: readonly string[]): string[] {
  const set = names.filter((n) => (env[n] ?? '').trim() !== '');
  if (set.length === 0 || set.length === names.length) return [];
  return names
    .filter((n) => !set.includes(n))
    .map((n) => `${n} is not set: ${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} (set all of ${names.join(', ')}, or none)`);
}
