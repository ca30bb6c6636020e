/**
 * How fast the web app's pages answer for a big account, on SQLite and PostgreSQL (issue 16:
 * every page under 50 ms p99 with 100 000 links; issues 31 and 32: the statistics pages too, for a
 * link with 10 million clicks over a year, map included).
 *
 * Starts a real server (buildServer, listening on loopback), makes an account through /signup,
 * signs in through /login, then loads straight with SQL: L links (default 100 000) in five
 * spaces, a pixel on every 20th, clicks counts spread, every 50th disabled and every 7th
 * expired; one of them with C clicks (10 000 000) over the last 365 days in its rollups (a
 * wide spread: 3 000 cities, 5 000 referrers, 200 countries over the year), and 1 000 000
 * clicks over the last 30 days on 5 000 others (the dashboard's account-wide sums). A second
 * account's workspace, for the analytics page and GET /api/v1/workspaces/{id}/stats (each name,
 * with an API key), has L links of its own and C clicks spread over all of them
 * (bench/analytics-seed.ts says what is written). Then times R sequential GETs of each page (the
 * first alone, p50, p99, max), after a warm-up, with the session cookie.
 * Prints the app's own script and stylesheet sizes (raw, gzip, brotli) as served, and last a
 * verdict per engine: PASS when every page's p99 is under its target, else FAIL naming the pages
 * (and the exit code is 1). The data is loaded and the months folded while no server runs
 * (a server's own folding rounds would race the fold); the pages are then timed on a new one.
 * The SQLite file is kept in bench/.cache (gitignored) for the day it was built: a run the same
 * day with the same sizes times the pages on it without loading again.
 *
 *   npm run bench:web [-- --links 100000 --clicks 10000000 --runs 300 --warmup 20 --engine both|sqlite|postgres
 *                        --pages REGEXP (only the pages whose label matches, e.g. 'search')
 *                        --unfolded (statistics from the daily rollups alone, not folded into months)
 *                        --fresh (SQLite: load again rather than reuse the cached file)
 *                        --keep (PostgreSQL: the loaded schema is kept and its name printed)
 *                        --schema NAME (PostgreSQL: time the pages on a schema kept before, loading nothing)]
 *   (PostgreSQL from TEST_DATABASE_URL, if set, with Redis at TEST_REDIS_URL or 127.0.0.1:6379
 *   under a key prefix of its own, deleted after)
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { inFreshPgSchema } from './pg-schema.ts';
import { Redis } from 'ioredis';
import { DAYS, benchLinksOf, seed, type Seeded } from './web-seed.ts';
import { foldFinishedMonths } from './rollup-seed.ts';
import { CLICK_ROW_DAYS, seedAnalytics } from './analytics-seed.ts';
import { CLI_OPERATOR } from '../src/core/audit/audit-entry.ts';
import { WORKSPACE_STATS_NAMES } from '../src/core/analytics/workspace-stats.ts';
import { loadConfig, type Config } from '../src/app/config.ts';
import { createContainer } from '../src/app/container.ts';
import { buildServer, type Server } from '../src/app/server.ts';
import { addDays } from '../src/core/stats/range.ts';
import { PASSWORD, WebClient } from '../test/support/web-client.ts';

const { values } = parseArgs({
  options: {
    links: { type: 'string', default: '100000' },
    clicks: { type: 'string', default: '10000000' },
    runs: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '20' },
    engine: { type: 'string', default: 'both' },
    pages: { type: 'string', default: '' },
    unfolded: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    schema: { type: 'string', default: '' },
    fresh: { type: 'boolean', default: false },
  },
});
const LINKS = Number(values.links);
const CLICKS = Number(values.clicks);
const RUNS = Number(values.runs);
const PAGES = new RegExp(values.pages, 'i');
const WARMUP = Number(values.warmup);
const PAGE_TARGET_MS = 50;
const STATS_TARGET_MS = 50;
const API_TARGET_MS = 50;
const JS_TARGET_BYTES = 30 * 1024;

interface Timing {
  label: string;
  /** The first request's time: a workspace's settled sums are read then, and kept. */
  first: number;
  path: string;
  target: number;
  p50: number;
  p99: number;
  max: number;
  bytes: number;
  status: number;
}

async function time(
  client: WebClient,
  label: string,
  path: string,
  target: number,
  headers: Record<string, string> = {},
): Promise<Timing> {
  const started = performance.now();
  const first = await client.get(path, { ...headers, 'accept-encoding': 'identity' });
  const firstMs = performance.now() - started;
  if (first.status === 404)
    return { label, first: firstMs, path, target, p50: NaN, p99: NaN, max: NaN, bytes: 0, status: 404 };
  if (first.status !== 200) throw new Error(`${path}: ${first.status} ${first.text.slice(0, 300)}`);
  for (let i = 0; i < WARMUP; i++) await client.get(path, headers);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const reply = await client.get(path, headers);
    times.push(performance.now() - start);
    if (reply.status !== 200) throw new Error(`${path}: ${reply.status}`);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]!;
  return {
    label,
    first: firstMs,
    path,
    target,
    p50: at(0.5),
    p99: at(0.99),
    max: times.at(-1)!,
    bytes: Buffer.byteLength(first.text),
    status: 200,
  };
}

async function assetSizes(client: WebClient, page: string): Promise<void> {
  const html = (await client.get(page)).text;
  const paths = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  console.log('\nasset'.padEnd(34), 'raw'.padStart(9), 'gzip'.padStart(9), 'brotli'.padStart(9));
  for (const path of [...new Set(paths)]) {
    // fetch decodes what it is sent: the bytes on the wire are the Content-Length.
    const wire = async (encoding: string) => {
      const res = await fetch(client.baseUrl + path, { headers: { 'accept-encoding': encoding } });
      await res.arrayBuffer();
      return Number(res.headers.get('content-length'));
    };
    const raw = await wire('identity');
    const gzip = await wire('gzip');
    const br = await wire('br');
    const verdict = path.endsWith('.js')
      ? `  ${Math.min(gzip, br) < JS_TARGET_BYTES ? 'PASS' : 'FAIL'} (< 30 KB compressed)`
      : '';
    console.log(path.padEnd(33), kb(raw).padStart(9), kb(gzip).padStart(9), kb(br).padStart(9), verdict);
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

interface Verdict {
  engine: string;
  failed: string[];
  measured: number;
}

/** A server on `config`, listening on loopback, for `fn`; closed after. */
async function withServer<T>(
  config: Config,
  pgSchema: string | undefined,
  fn: (baseUrl: string, server: Server) => Promise<T>,
): Promise<T> {
  // The web app's rate limit would answer the timed pages 429.
  const server = await buildServer(config, { tuning: { WEB_RATE_LIMIT: 0 }, ...(pgSchema ? { pgSchema } : {}) });
  try {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const address = server.app.server.address();
    return await fn(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, server);
  } finally {
    await server.close();
  }
}

const EMAIL = 'bench@example.com';
/** The workspace of the analytics pages: its clicks spread over all its links (bench/analytics-seed.ts). */
const ANALYTICS_EMAIL = 'analytics@example.com';

interface Loaded extends Seeded {
  analytics: { workspace: number; firstDay: string; today: string };
}

/** The seeded accounts' links and days, read back from a database an earlier run built (--schema, the SQLite cache). */
async function seededOf(config: Config, pgSchema: string | undefined): Promise<Loaded> {
  const container = createContainer(config, pgSchema ? { pgSchema } : {});
  try {
    const db = container.storage.db;
    const account = await db.selectFrom('accounts').select('id').where('email', '=', EMAIL).executeTakeFirstOrThrow();
    const { big, plain } = await benchLinksOf(db, account.id);
    const space = (
      await db
        .selectFrom('spaces')
        .select('id')
        .where('account_id', '=', account.id)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
    const first = await db
      .selectFrom('click_rollups')
      .select((eb) => eb.fn.min('day').as('day'))
      .where('link_id', '=', big)
      .executeTakeFirstOrThrow();
    const firstDay = String(first.day);
    const workspace = await db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', ANALYTICS_EMAIL)
      .executeTakeFirstOrThrow();
    const days = await db
      .selectFrom('account_click_days')
      .select((eb) => [eb.fn.min('day').as('first'), eb.fn.max('day').as('last')])
      .where('account_id', '=', workspace.id)
      .executeTakeFirstOrThrow();
    return {
      big,
      plain,
      space,
      firstDay,
      today: addDays(firstDay, DAYS - 1),
      analytics: { workspace: workspace.id, firstDay: String(days.first), today: String(days.last) },
    };
  } finally {
    await container.close();
  }
}

/**
 * The SQLite file built for these sizes today, kept under bench/.cache (gitignored) so that a
 * run on the same day times the pages without loading again (--fresh builds it again). The
 * seeds' days end today: a file of an earlier day is deleted, not reused.
 */
function sqliteCache(): { file: string; done: string; built: boolean } {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '.cache');
  mkdirSync(dir, { recursive: true });
  const day = new Date().toISOString().slice(0, 10);
  const name = `web-pages-v1-${LINKS}-${CLICKS}-${day}${values.unfolded ? '-unfolded' : ''}.db`;
  for (const old of readdirSync(dir))
    if (old.startsWith('web-pages-') && (!old.includes(`-${day}`) || (values.fresh && old.startsWith(name))))
      rmSync(join(dir, old), { force: true });
  const file = join(dir, name);
  const done = `${file}.done`;
  // A load cut short leaves the file without its mark: loaded again from nothing.
  if (!existsSync(done)) for (const part of ['', '-wal', '-shm']) rmSync(file + part, { force: true });
  return { file, done, built: existsSync(done) };
}

async function benchEngine(
  label: string,
  env: Record<string, string>,
  pgSchema?: string,
  cached = false,
  onLoaded?: () => void,
): Promise<Verdict> {
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent', TITLE_FETCH: 'false', API_RATE_LIMIT: '0' });
  let s: Loaded;
  if ((pgSchema && values.schema) || cached) {
    console.log(`\n${label}: timing the pages on the database ${pgSchema ?? 'file'} an earlier run loaded`);
    s = await seededOf(config, pgSchema);
  } else {
    s = await load(label, config, pgSchema);
    onLoaded?.();
  }
  return timePages(label, config, pgSchema, s);
}

/** Signs up, loads the accounts and folds their months; what the pages are timed on. */
async function load(label: string, config: Config, pgSchema: string | undefined): Promise<Loaded> {
  // Signed up through a server of its own, closed before the load.
  const [account, workspace] = await withServer(config, pgSchema, async (baseUrl, server) => {
    const signUp = async (email: string) => {
      const signup = await new WebClient(baseUrl).post(
        '/signup',
        { name: 'Bench', email, password: PASSWORD },
        { from: '/signup' },
      );
      if (signup.status !== 303) throw new Error(`sign-up: ${signup.status}`);
      return server.container.storage.db
        .selectFrom('accounts')
        .select(['id', 'timezone'])
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
    };
    return [await signUp(EMAIL), await signUp(ANALYTICS_EMAIL)];
  });

  // Loaded and folded while no server runs: a server folds months in rounds of its own (docs/design/statistics.md,
  // a minute after it starts), and a round in flight while the fold below starts over wrote
  // the month rows a second time (PostgreSQL: a duplicate key in click_rollup_months). The
  // server timed below starts on months folded already, so its rounds find nothing to do.
  const container = createContainer(config, pgSchema ? { pgSchema } : {});
  let s: Loaded;
  try {
    const { db, engine } = container.storage;
    // The load's own pages: the workspace's link days are written in a key order of their own.
    if (engine === 'sqlite') await sql`pragma cache_size = -1000000`.execute(db);
    let t0 = performance.now();
    const seeded = await seed(db, engine, account.id, account.timezone, { links: LINKS, clicks: CLICKS });
    const rows = await db
      .selectFrom('click_rollups')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    console.log(
      `\n${label}: ${LINKS.toLocaleString('en')} links; link ${seeded.big} with ${CLICKS.toLocaleString('en')} clicks over ${DAYS} days ` +
        `(${seeded.firstDay} .. ${seeded.today}); ${Number(rows.n).toLocaleString('en')} rollup rows in all; loaded in ${seconds(t0)}`,
    );
    t0 = performance.now();
    const a = await seedAnalytics(db, engine, workspace.id, workspace.timezone, { links: LINKS, clicks: CLICKS });
    if (engine === 'postgres') await sql`vacuum analyze`.execute(db);
    else await sql`analyze`.execute(db);
    console.log(
      `workspace ${workspace.id}: ${LINKS.toLocaleString('en')} links, ${CLICKS.toLocaleString('en')} clicks over ${DAYS} days ` +
        `in ${a.linkDays.toLocaleString('en')} link-days; click rows of the last ${CLICK_ROW_DAYS} days only ` +
        `(${a.clickRows.toLocaleString('en')}); loaded in ${seconds(t0)}`,
    );
    s = { ...seeded, analytics: { workspace: workspace.id, firstDay: a.firstDay, today: a.today } };
    if (!values.unfolded) await foldFinishedMonths(db, engine, container.statsMaintenance);
  } finally {
    await container.close();
  }
  return s;
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

async function timePages(label: string, config: Config, pgSchema: string | undefined, s: Loaded): Promise<Verdict> {
  const email = EMAIL;
  return withServer(config, pgSchema, async (baseUrl, server) => {
    const signIn = async (address: string) => {
      const signedIn = new WebClient(baseUrl);
      const login = await signedIn.post('/login', { email: address, password: PASSWORD }, { from: '/login' });
      if (login.status !== 303) throw new Error(`sign-in: ${login.status}`);
      return signedIn;
    };
    const client = await signIn(email);
    const analytics = await signIn(ANALYTICS_EMAIL);
    const { apiKey } = await server.container.accounts.createKeyFor(s.analytics.workspace, 'bench', CLI_OPERATOR);
    const api = { client: new WebClient(baseUrl), headers: { authorization: `Bearer ${apiKey}` } };
    console.log(
      `${RUNS} sequential GETs a page after ${WARMUP} to warm up, signed in, over HTTP on loopback; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const year = `from=${s.firstDay}&to=${s.today}`;
    const aYear = `from=${s.analytics.firstDay}&to=${s.analytics.today}`;
    const pages: Array<readonly [string, string, number, { client: WebClient; headers?: Record<string, string> }?]> = [
      ['dashboard', '/dashboard', PAGE_TARGET_MS],
      ['analytics', '/dashboard/analytics', PAGE_TARGET_MS],
      ['analytics, a year', `/dashboard/analytics?${year}`, STATS_TARGET_MS],
      ['links', '/links', PAGE_TARGET_MS],
      ['links, search alias', '/links?search=b4242&by=alias', PAGE_TARGET_MS],
      ['links, search url', '/links?search=products%2F4242&by=url', PAGE_TARGET_MS],
      ['links, search title', '/links?search=page+4242&by=title', PAGE_TARGET_MS],
      ['links, search url, in every link', '/links?search=example.com&by=url', PAGE_TARGET_MS],
      // The web app's default (any field since issue 31; the title alone before).
      ['links, search default', '/links?search=4242', PAGE_TARGET_MS],
      ['links, search default, in every link', '/links?search=example.com', PAGE_TARGET_MS],
      ['links, search default, 2 chars', '/links?search=b4', PAGE_TARGET_MS],
      ['links, space + active', `/links?space=${s.space}&status=1`, PAGE_TARGET_MS],
      ['links, by clicks, page 500', '/links?sort=max&page=500', PAGE_TARGET_MS],
      ['link edit', `/links/${s.plain}/edit`, PAGE_TARGET_MS],
      ['link QR', `/links/${s.plain}/qr`, PAGE_TARGET_MS],
      ['link rules builder', `/links/${s.plain}/rules`, PAGE_TARGET_MS],
      ['link conversions', `/links/${s.plain}/conversions`, PAGE_TARGET_MS],
      ['link history', `/links/${s.plain}/history`, PAGE_TARGET_MS],
      ['link schedule', `/links/${s.plain}/schedule`, PAGE_TARGET_MS],
      ['links import', '/links/import', PAGE_TARGET_MS],
      ['pixels', '/pixels', PAGE_TARGET_MS],
      ['spaces', '/spaces', PAGE_TARGET_MS],
      ['account', '/account', PAGE_TARGET_MS],
      ['API keys', '/account/api-keys', PAGE_TARGET_MS],
      // Built from the description and the settings: it reads no table.
      ['privacy', '/privacy', PAGE_TARGET_MS],
      // The first account signed up is the operator: every people or visits table's row count.
      ['admin data', '/admin/data', PAGE_TARGET_MS],
      ['stats, last 30 days', `/stats/${s.big}`, STATS_TARGET_MS],
      ['stats, year', `/stats/${s.big}?${year}`, STATS_TARGET_MS],
      ['stats countries + map, year', `/stats/${s.big}/countries?${year}`, STATS_TARGET_MS],
      ['stats hours, year', `/stats/${s.big}/hours?${year}`, STATS_TARGET_MS],
      ['stats referrers, year', `/stats/${s.big}/referrers?${year}`, STATS_TARGET_MS],
      ['stats cities, year', `/stats/${s.big}/cities?${year}`, STATS_TARGET_MS],
      // The workspace whose 10 M clicks are spread over its 100 000 links (bench/analytics-seed.ts).
      ['workspace analytics, 30 days', '/dashboard/analytics', PAGE_TARGET_MS, { client: analytics }],
      ['workspace analytics, a year', `/dashboard/analytics?${aYear}`, PAGE_TARGET_MS, { client: analytics }],
      ...WORKSPACE_STATS_NAMES.map(
        (name) =>
          [
            `workspace API ${name}, a year`,
            `/api/v1/workspaces/${s.analytics.workspace}/stats?name=${name}&${aYear}`,
            API_TARGET_MS,
            api,
          ] as const,
      ),
    ];
    console.log(
      'page'.padEnd(36),
      'first ms'.padStart(8),
      'p50 ms'.padStart(8),
      'p99 ms'.padStart(8),
      'max ms'.padStart(8),
      'target'.padStart(8),
      '  ',
      'KB'.padStart(6),
    );
    const failed: string[] = [];
    let measured = 0;
    for (const [name, path, target, as] of pages.filter(([name]) => PAGES.test(name))) {
      const r = await time(as?.client ?? client, name, path, target, as?.headers);
      if (r.status === 404) {
        console.log(name.padEnd(36), '(404: no such page yet)');
        continue;
      }
      measured++;
      if (!(r.p99 < target)) failed.push(`${name} (p99 ${r.p99.toFixed(1)} ms, target ${target})`);
      console.log(
        name.padEnd(36),
        r.first.toFixed(1).padStart(8),
        r.p50.toFixed(1).padStart(8),
        r.p99.toFixed(1).padStart(8),
        r.max.toFixed(1).padStart(8),
        `< ${target}`.padStart(8),
        r.p99 < target ? 'PASS' : 'FAIL',
        (r.bytes / 1024).toFixed(0).padStart(6),
      );
    }
    console.log(
      `load average after: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    await assetSizes(client, '/dashboard');
    return { engine: label, failed, measured };
  });
}

/** Redis keys under `prefix`, deleted: the PostgreSQL run shares TEST_REDIS_URL's server. */
async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

const verdicts: Verdict[] = [];
try {
  if (values.engine !== 'postgres') {
    const cache = sqliteCache();
    const done = () => writeFileSync(cache.done, '');
    verdicts.push(await benchEngine('SQLite', { DATABASE_URL: `sqlite:${cache.file}` }, undefined, cache.built, done));
  }
  if (values.engine !== 'sqlite') {
    // PostgreSQL as several instances run it: with Redis (caches, counters, shared state).
    const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const prefix = `lp_bench_web_${randomBytes(4).toString('hex')}:`;
    try {
      const run = async (url: string, schema: string) => {
        verdicts.push(
          await benchEngine(
            'PostgreSQL + Redis',
            { DATABASE_URL: url, REDIS_URL: redisUrl, REDIS_PREFIX: prefix },
            schema,
          ),
        );
      };
      if (values.schema) {
        const url = process.env.TEST_DATABASE_URL;
        if (!url) throw new Error('--schema needs TEST_DATABASE_URL');
        await run(url, values.schema);
      } else await inFreshPgSchema(run, { keep: values.keep });
    } finally {
      await deleteKeys(redisUrl, prefix);
    }
  }
} finally {
  // Nothing of the engines' runs to delete: the SQLite file is the cache, a PostgreSQL schema is dropped by its run.
}

console.log(`\nverdict (p99 under each page's target: ${PAGE_TARGET_MS} ms, statistics ${STATS_TARGET_MS} ms)`);
for (const v of verdicts) {
  console.log(
    `${v.engine.padEnd(20)} ${v.failed.length === 0 ? 'PASS' : 'FAIL'}: ${v.measured - v.failed.length} of ${v.measured} pages under target`,
  );
  for (const f of v.failed) console.log(`  FAIL ${f}`);
}
if (verdicts.some((v) => v.failed.length > 0)) process.exitCode = 1;
