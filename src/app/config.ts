import { parseSealKeys } from '../adapters/secrets/seal-key.ts';
import { schemeName } from '../core/links/url-policy.ts';

/**
 * Every setting linkpix reads, with its default and a line of doc: only those an operator has a
 * reason to turn (docs/operations.md); other values are constants (tuning.ts,
 * docs/design/settings.md). Read once at start, validated, and turned into a plain options
 * object; nothing else reads process.env but tuning.ts's test channel and the retired names' warning.
 */
/** `env`: for the few values that follow another variable. */
type Parser<T> = (raw: string, env?: Env) => T;

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

/** Beside the SQLite file (one file a database), ./data/ on PostgreSQL; none for an in-memory database, which has no outage. */
function defaultSnapshotPath(databaseUrl: string): string {
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) return './data/redirects.snapshot';
  const path = databaseUrl.replace(/^sqlite:(\/\/)?/i, '').replace(/^file:/i, '');
  if (path === ':memory:' || path === '') return '';
  return `${path}.redirects.snapshot`;
}

const list: Parser<string[]> = (raw) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

// Schemes that run code or read local data in a browser, or (Android's intent:) open any app
// the link names: never a link's destination nor an app's, whatever an operator lists. Links
// stored with one keep working and are named by the start's warning (docs/design/app-schemes.md).
const UNSAFE_SCHEMES = ['javascript', 'data', 'vbscript', 'file', 'blob', 'about', 'intent'];
// An app link is https already, and never http: neither is a custom app scheme.
const NO_APP_SCHEMES = new Set([...UNSAFE_SCHEMES, 'http', 'https']);
const NO_URL_SCHEMES = new Set(UNSAFE_SCHEMES);

/** A comma-separated list of schemes, each a scheme's spelling and none of `refused`. */
const schemeList =
  (refused: ReadonlySet<string>, what: string): Parser<string[]> =>
  (raw) => {
    const schemes = list(raw).map(schemeName);
    for (const s of schemes) {
      if (!/^[a-z][a-z0-9+.-]*$/.test(s)) throw new Error(`${s} is not a URL scheme`);
      if (refused.has(s)) throw new Error(`${s} cannot be ${what}`);
    }
    return schemes;
  };

const appSchemes = schemeList(NO_APP_SCHEMES, 'an app scheme');
const urlSchemes = schemeList(
  NO_URL_SCHEMES,
  "a link's destination scheme (it runs code, reads local data or opens any app)",
);

/** The old per-area names of OUTBOUND_ALLOW_PRIVATE, read for one release (retired-settings.ts warns of them). */
export const OUTBOUND_ALIASES = [
  'WEBHOOK_ALLOW_PRIVATE',
  'TITLE_FETCH_ALLOW_PRIVATE',
  'DOMAIN_VERIFICATION_ALLOW_PRIVATE',
] as const;

const isTrue = (raw: string | undefined): boolean => {
  try {
    return raw !== undefined && bool(raw);
  } catch {
    return false; // reported by its own name (loadConfig)
  }
};

/** A port alone keeps the loopback host (METRICS_HOST's, while that is read for one release); host:port, [v6]:port. */
const listenAddress: Parser<{ host: string; port: number } | null> = (raw, env) => {
  const s = raw.trim();
  if (s === '') return null;
  const port = int(1, 65535);
  if (/^\d+$/.test(s)) return { host: env?.METRICS_HOST?.trim() || '127.0.0.1', port: port(s) };
  const hostPort = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]]+)):(\d+)$/.exec(s);
  if (!hostPort) throw new Error('must be a port (9100) or host:port (0.0.0.0:9100, [::1]:9100)');
  return { host: hostPort[1] ?? hostPort[2]!, port: port(hostPort[3]!) };
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
  DATABASE_URL: {
    default: 'sqlite:./data/linkpix.db',
    doc: 'sqlite:<file> (embedded, default) or postgres://user@host/db.',
    parse: databaseUrl,
  },
  SNAPSHOT_PATH: {
    default: (env: Env) => defaultSnapshotPath(env.DATABASE_URL ?? 'sqlite:./data/linkpix.db'),
    doc: 'The redirect snapshot: every enabled link, kept on disk so redirects outlive the database (docs/operations.md); empty: off. Unset: beside the SQLite file, ./data/redirects.snapshot on PostgreSQL.',
    parse: (s: string) => s.trim(),
  },
  DATABASE_POOL_SIZE: {
    default: '10',
    doc: "PostgreSQL connections per instance (the click writer's thread has two more of its own).",
    parse: int(1, 500),
  },
  LOG_LEVEL: {
    default: 'info',
    doc: 'fatal, error, warn, info, debug, trace or silent.',
    parse: oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'),
  },
  TRUST_PROXY: {
    default: 'false',
    doc: 'Honour X-Forwarded-* from: false, true, a hop count, or addresses/CIDRs.',
    parse: trustProxy,
  },
  API_RATE_LIMIT: {
    default: '120',
    doc: 'API requests per key per minute; 0 turns the limit off.',
    parse: int(0, 1_000_000),
  },
  URL_SCHEMES: { default: 'http,https', doc: 'Schemes a link may point to, comma-separated.', parse: urlSchemes },
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
  TITLE_FETCH: { default: 'true', doc: 'Fetch a page title in the background when a link has none.', parse: bool },
  OUTBOUND_ALLOW_PRIVATE: {
    // The three names it replaces are read for one release, named by the start's warning.
    default: (env: Env) => (OUTBOUND_ALIASES.some((name) => isTrue(env[name])) ? 'true' : 'false'),
    doc: "Let linkpix's own requests (webhook deliveries, title fetches, destination checks, domain checks over HTTP) reach private, loopback and link-local addresses.",
    parse: bool,
  },
  HEALTH_CHECK_INTERVAL_HOURS: {
    default: '24',
    doc: "Check each enabled link's destination this often (broken ones hourly); 0: no scheduled checks.",
    parse: int(0, 8760),
  },
  REDIRECT_STATUS: {
    default: '302',
    doc: 'HTTP status of the redirect: 301, 302, 307 or 308.',
    parse: oneOf('301', '302', '307', '308'),
  },
  SIGNUP: {
    default: 'open',
    doc: 'Who may make an account in the web app: open (anyone, at /signup) or closed (the CLI only).',
    parse: oneOf('open', 'closed'),
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
  MAIL_FROM: {
    default: 'linkpix <no-reply@localhost>',
    doc: 'The From of the emails linkpix sends.',
    parse: (s: string) => s.trim(),
  },
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
  OIDC_CLIENT_SECRET: {
    default: '',
    doc: 'The client secret linkpix has at the OpenID provider.',
    parse: (s: string) => s.trim(),
  },
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
  OIDC_NAME: {
    default: '',
    doc: 'The provider\'s name on the "Sign in with …" button; empty: single sign-on.',
    parse: (s: string) => s.trim().slice(0, 60),
  },
  PIXEL_CONSENT: {
    default: 'ask',
    doc: 'Tracking pixels: ask (once, remembered 30 days), implied, or never.',
    parse: oneOf('ask', 'implied', 'never'),
  },
  GEOIP_DATABASE: {
    default: '',
    doc: 'Path to a country .mmdb (DB-IP or MaxMind format); empty: the bundled DB-IP Lite.',
    parse: (s: string) => s.trim(),
  },
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
  CLICK_FLUSH_INTERVAL_MS: {
    default: '1000',
    doc: 'Clicks are written in batches at least this often.',
    parse: int(10, 60_000),
  },
  STATS_MIN_COUNT: {
    default: '5',
    doc: 'On public statistics pages and their CSV, values with fewer clicks than this are shown together as "Other" (the owner sees them all); 1: never.',
    parse: int(1, 1_000_000),
  },
  CLICK_RETENTION_DAYS: {
    default: '90',
    doc: 'Raw click rows are deleted after this many days (statistics stay); 0 keeps them forever.',
    parse: int(0, 36_500),
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
    doc: 'Serve GET /metrics on an address of its own instead: host:port, or a bare port on 127.0.0.1 (METRICS_TOKEN is asked there too when set); empty: not on a port of its own.',
    parse: listenAddress,
  },
  REQUEST_TIMEOUT_MS: {
    default: '30000',
    doc: "How long a request's head and body may take to arrive, an import's upload too (a 50 MiB file in 30 s needs about 14 Mbit/s); past it a 408.",
    parse: int(1000, 600_000),
  },
  SHUTDOWN_TIMEOUT_MS: {
    default: '10000',
    doc: 'On SIGTERM, how long requests in flight may take to finish.',
    parse: int(0, 600_000),
  },
} satisfies Record<string, Entry<unknown>>;

type Catalogue = typeof CATALOGUE;

/** The names of every setting read today. */
export const SETTING_NAMES: ReadonlySet<string> = new Set(Object.keys(CATALOGUE));
export type Config = { [K in keyof Catalogue]: ReturnType<Catalogue[K]['parse']> };

export class ConfigError extends Error {}

/** Validates every variable and reports all bad ones at once, each by name. */
export function loadConfig(env: Env): Config {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, entry] of Object.entries(CATALOGUE) as [string, Entry<unknown>][]) {
    const raw = env[name] ?? (typeof entry.default === 'function' ? entry.default(env) : entry.default);
    try {
      out[name] = entry.parse(raw, env);
    } catch (error) {
      problems.push(
        `${entry.secret ? `${name} (its value not shown)` : `${name}=${JSON.stringify(raw)}`}: ${(error as Error).message}`,
      );
    }
  }
  problems.push(...allOrNone(env, ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET']));
  for (const alias of OUTBOUND_ALIASES) {
    const raw = env[alias];
    if (raw === undefined) continue;
    try {
      bool(raw);
    } catch (error) {
      problems.push(`${alias}=${JSON.stringify(raw)} (read as OUTBOUND_ALLOW_PRIVATE): ${(error as Error).message}`);
    }
  }
  // A verification mail that can never leave would lock every sign-up out.
  if (
    out.EMAIL_VERIFICATION === 'required' &&
    out.SMTP_URL === null &&
    !problems.some((p) => p.startsWith('SMTP_URL='))
  ) {
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
    .map(
      (n) =>
        `${n} is not set: ${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} (set all of ${names.join(', ')}, or none)`,
    );
}
