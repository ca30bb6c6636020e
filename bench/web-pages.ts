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
 * clicks over the last 30 days on 5 000 others (the dashboard's account-wide sums). Then times
 * R sequential GETs of each page (p50, p99, max), after a warm-up, with the session cookie.
 * Prints the app's own script and stylesheet sizes (raw, gzip, brotli) as served, and last a
 * verdict per engine: PASS when every page's p99 is under its target, else FAIL naming the pages
 * (and the exit code is 1). The data is loaded and the months folded while no server runs
 * (a server's own folding rounds would race the fold); the pages are then timed on a new one.
 *
 *   npm run bench:web [-- --links 100000 --clicks 10000000 --runs 300 --engine both|sqlite|postgres
 *                        --pages REGEXP (only the pages whose label matches, e.g. 'search')
 *                        --unfolded (statistics from the daily rollups alone, not folded into months)
 *                        --keep (PostgreSQL: the loaded schema is kept and its name printed)
 *                        --schema NAME (PostgreSQL: time the pages on a schema kept before, loading nothing)]
 *   (PostgreSQL from TEST_DATABASE_URL, if set, with Redis at TEST_REDIS_URL or 127.0.0.1:6379
 *   under a key prefix of its own, deleted after)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { inFreshPgSchema } from './pg-schema.ts';
import { Redis } from 'ioredis';
import { DAYS, benchLinksOf, seed, type Seeded } from './web-seed.ts';
import { foldFinishedMonths } from './rollup-seed.ts';
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
    engine: { type: 'string', default: 'both' },
    pages: { type: 'string', default: '' },
    unfolded: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    schema: { type: 'string', default: '' },
  },
});
const LINKS = Number(values.links);
const CLICKS = Number(values.clicks);
const RUNS = Number(values.runs);
const PAGES = new RegExp(values.pages, 'i');
const WARMUP = 20;
const PAGE_TARGET_MS = 50;
const STATS_TARGET_MS = 50;
const JS_TARGET_BYTES = 30 * 1024;

interface Timing {
  label: string;
  path: string;
  target: number;
  p50: number;
  p99: number;
  max: number;
  bytes: number;
  status: number;
}

async function time(client: WebClient, label: string, path: string, target: number): Promise<Timing> {
  const first = await client.get(path, { 'accept-encoding': 'identity' });
  if (first.status === 404) return { label, path, target, p50: NaN, p99: NaN, max: NaN, bytes: 0, status: 404 };
  if (first.status !== 200) throw new Error(`${path}: ${first.status} ${first.text.slice(0, 300)}`);
  for (let i = 0; i < WARMUP; i++) await client.get(path);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const reply = await client.get(path);
    times.push(performance.now() - start);
    if (reply.status !== 200) throw new Error(`${path}: ${reply.status}`);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]!;
  return {
    label,
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

/** The seeded account's links and days, read back from a schema kept by an earlier run (--schema). */
async function seededOf(config: Config, pgSchema: string): Promise<Seeded> {
  const container = createContainer(config, { pgSchema });
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
    return { big, plain, space, firstDay, today: addDays(firstDay, DAYS - 1) };
  } finally {
    await container.close();
  }
}

async function benchEngine(label: string, env: Record<string, string>, pgSchema?: string): Promise<Verdict> {
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent', TITLE_FETCH: 'false', API_RATE_LIMIT: '0' });
  const s = pgSchema && values.schema ? await seededOf(config, pgSchema) : await load(label, config, pgSchema);
  return timePages(label, config, pgSchema, s);
}

/** Signs up, loads the account and folds its months; what the pages are timed on. */
async function load(label: string, config: Config, pgSchema: string | undefined): Promise<Seeded> {
  const email = EMAIL;
  // Signed up through a server of its own, closed before the load.
  const account = await withServer(config, pgSchema, async (baseUrl, server) => {
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
  });

  // Loaded and folded while no server runs: a server folds months in rounds of its own (docs/design/statistics.md,
  // a minute after it starts), and a round in flight while the fold below starts over wrote
  // the month rows a second time (PostgreSQL: a duplicate key in click_rollup_months). The
  // server timed below starts on months folded already, so its rounds find nothing to do.
  const container = createContainer(config, pgSchema ? { pgSchema } : {});
  let s: Seeded;
  try {
    const t0 = performance.now();
    s = await seed(container.storage.db, container.storage.engine, account.id, account.timezone, {
      links: LINKS,
      clicks: CLICKS,
    });
    const rows = await container.storage.db
      .selectFrom('click_rollups')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    console.log(
      `\n${label}: ${LINKS.toLocaleString('en')} links; link ${s.big} with ${CLICKS.toLocaleString('en')} clicks over ${DAYS} days ` +
        `(${s.firstDay} .. ${s.today}); ${Number(rows.n).toLocaleString('en')} rollup rows in all; loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    if (!values.unfolded)
      await foldFinishedMonths(container.storage.db, container.storage.engine, container.statsMaintenance);
  } finally {
    await container.close();
  }
  return s;
}

async function timePages(label: string, config: Config, pgSchema: string | undefined, s: Seeded): Promise<Verdict> {
  const email = EMAIL;
  return withServer(config, pgSchema, async (baseUrl) => {
    const client = new WebClient(baseUrl);
    const login = await client.post('/login', { email, password: PASSWORD }, { from: '/login' });
    if (login.status !== 303) throw new Error(`sign-in: ${login.status}`);
    console.log(
      `${RUNS} sequential GETs a page after ${WARMUP} to warm up, signed in, over HTTP on loopback; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const year = `from=${s.firstDay}&to=${s.today}`;
    const pages: Array<[string, string, number]> = [
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
      ['pixels', '/pixels', PAGE_TARGET_MS],
      ['spaces', '/spaces', PAGE_TARGET_MS],
      ['account', '/account', PAGE_TARGET_MS],
      ['API keys', '/account/api-keys', PAGE_TARGET_MS],
      // Built from the description and the settings: it reads no table.
      ['privacy', '/privacy', PAGE_TARGET_MS],
      ['stats, last 30 days', `/stats/${s.big}`, STATS_TARGET_MS],
      ['stats, year', `/stats/${s.big}?${year}`, STATS_TARGET_MS],
      ['stats countries + map, year', `/stats/${s.big}/countries?${year}`, STATS_TARGET_MS],
      ['stats hours, year', `/stats/${s.big}/hours?${year}`, STATS_TARGET_MS],
      ['stats referrers, year', `/stats/${s.big}/referrers?${year}`, STATS_TARGET_MS],
      ['stats cities, year', `/stats/${s.big}/cities?${year}`, STATS_TARGET_MS],
    ];
    console.log(
      'page'.padEnd(36),
      'p50 ms'.padStart(8),
      'p99 ms'.padStart(8),
      'max ms'.padStart(8),
      'target'.padStart(8),
      '  ',
      'KB'.padStart(6),
    );
    const failed: string[] = [];
    let measured = 0;
    for (const [name, path, target] of pages.filter(([name]) => PAGES.test(name))) {
      const r = await time(client, name, path, target);
      if (r.status === 404) {
        console.log(name.padEnd(36), '(404: no such page yet)');
        continue;
      }
      measured++;
      if (!(r.p99 < target)) failed.push(`${name} (p99 ${r.p99.toFixed(1)} ms, target ${target})`);
      console.log(
        name.padEnd(36),
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
const dir = mkdtempSync(join(tmpdir(), 'linkpix-bench-'));
try {
  if (values.engine !== 'postgres')
    verdicts.push(await benchEngine('SQLite', { DATABASE_URL: `sqlite:${join(dir, 'bench.db')}` }));
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
  rmSync(dir, { recursive: true, force: true });
}

console.log(`\nverdict (p99 under each page's target: ${PAGE_TARGET_MS} ms, statistics ${STATS_TARGET_MS} ms)`);
for (const v of verdicts) {
  console.log(
    `${v.engine.padEnd(20)} ${v.failed.length === 0 ? 'PASS' : 'FAIL'}: ${v.measured - v.failed.length} of ${v.measured} pages under target`,
  );
  for (const f of v.failed) console.log(`  FAIL ${f}`);
}
if (verdicts.some((v) => v.failed.length > 0)) process.exitCode = 1;
