/**
 * How fast a list page of an account with many links answers, on SQLite and PostgreSQL.
 * Loads N links (default 1 000 000) into one account and 100 000 more into four others
 * straight with SQL, lets the expiry sweep mark the expired ones as a running instance would,
 * then times each list query shape through the real service (count + page + joins), median
 * and p99 (nearest rank) of repeated runs after a few unmeasured ones.
 *
 *   npm run bench:api-list [-- --links 1000000 --runs 100]    (PostgreSQL from TEST_DATABASE_URL, if set)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import { inFreshPgSchema } from './pg-schema.ts';
import { loadConfig } from '../src/app/config.ts';
import { createContainer } from '../src/app/container.ts';
import type { LinkFilter } from '../src/core/links/link.ts';
import type { Database } from '../src/adapters/storage/schema.ts';
import { SqlExpiryClaims } from '../src/adapters/storage/stores/expiry-claims.ts';

const { values } = parseArgs({
  options: { links: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '100' } },
});
const N = Number(values.links);
const RUNS = Number(values.runs);
const WARM_UP_RUNS = 3;
const OTHER_ACCOUNTS = 4;
/** As many links as a sweep's round claims (app/webhook-runtime.ts). */
const SWEEP_ROUND = 500;
const LINKS_PER_OTHER_ACCOUNT = 25_000;

const SHAPES: Array<[string, Partial<LinkFilter>, number]> = [
  ['newest first, page 1', {}, 1],
  ['oldest first, page 1', { sort: 'asc' }, 1],
  ['best performing', { sort: 'max' }, 1],
  ['page 1000', {}, 1000],
  ['status active', { status: 1 }, 1],
  ['status expired', { status: 2 }, 1],
  ['status disabled', { status: 3 }, 1],
  ['space filter', { spaceId: 1 }, 1],
  ['search alias', { search: 'abc', by: 'alias' }, 1],
  ['search title, 9 chars', { search: 'itle 4242', by: 'title' }, 1],
  ['search alias, 2 chars', { search: 'b7', by: 'alias' }, 1],
];

async function benchEngine(name: string, databaseUrl: string, pgSchema?: string) {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', TITLE_FETCH: 'false' });
  const c = createContainer(config, pgSchema ? { pgSchema } : {});
  await c.migrate();
  const { account } = await c.accounts.createAccount({ email: `bench-${randomBytes(3).toString('hex')}@example.com` });
  const space = await c.spaces.create(account.id, { name: 'bench' }, { userId: null, keyId: null, via: 'cli' });
  const t0 = performance.now();
  for (let i = 0; i < OTHER_ACCOUNTS; i++) {
    const other = await c.accounts.createAccount({ email: `other-${i}-${randomBytes(3).toString('hex')}@example.com` });
    await loadLinks(c.storage.db, other.account.id, null, LINKS_PER_OTHER_ACCOUNT, `o${i}-`);
  }
  await loadLinks(c.storage.db, account.id, space.id, N, 'b');
  // What every instance's expiry sweep does within WEBHOOK_EXPIRY_SWEEP_MS of a link's expiry.
  const claims = new SqlExpiryClaims(c.storage.db, c.storage.engine);
  while ((await claims.claim(Date.now(), SWEEP_ROUND)).length > 0);
  // As autovacuum leaves a table after a bulk load (PostgreSQL 13+ vacuums after inserts too):
  // the visibility map set, so index-only scans read no heap.
  if (c.storage.engine === 'postgres') await sql`vacuum analyze links`.execute(c.storage.db);
  else await sql`analyze`.execute(c.storage.db);
  console.log(`\n${name}: loaded ${N.toLocaleString()} links in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  console.log('query'.padEnd(24), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'total'.padStart(10));
  for (const [label, filter, page] of SHAPES) {
    const times: number[] = [];
    let total = 0;
    for (let i = -WARM_UP_RUNS; i < RUNS; i++) {
      const start = performance.now();
      const result = await c.links.list(
        account.id,
        { by: 'title', status: 0, sort: 'desc', ...filter, ...(filter.spaceId ? { spaceId: space.id } : {}) },
        { page, perPage: 10 },
      );
      if (i >= 0) times.push(performance.now() - start);
      total = result.total;
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.max(0, Math.ceil(q * times.length) - 1)]!.toFixed(1);
    console.log(label.padEnd(24), at(0.5).padStart(8), at(0.99).padStart(8), String(total).padStart(10));
  }
  await c.close();
}

/**
 * `count` links in one statement on both engines (a recursive series): every 10th in the space
 * if there is one, every 50th disabled, every 7th with an expiry in the past, clicks spread out.
 */
async function loadLinks(
  db: Kysely<Database>,
  accountId: number,
  spaceId: number | null,
  count: number,
  aliasPrefix: string,
): Promise<void> {
  await sql`
    with recursive s(n) as (select 1 union all select n + 1 from s where n < cast(${count} as integer))
    insert into links (account_id, space_id, alias, alias_key, url, title, target_type, disabled, privacy,
                       ends_at, clicks, created_at, updated_at)
    select cast(${accountId} as integer), case when n % 10 = 0 then cast(${spaceId} as integer) else null end,
           ${aliasPrefix} || n, ${aliasPrefix} || n, 'https://example.com/' || n, 'Title ' || n, 0,
           case when n % 50 = 0 then 1 else 0 end, 0,
           case when n % 7 = 0 then 1000 else null end, (cast(n as bigint) * 7919) % 100000, cast(${Date.now()} as bigint), cast(${Date.now()} as bigint)
    from s`.execute(db);
}

const dir = mkdtempSync(join(tmpdir(), 'linkpix-bench-'));
try {
  await benchEngine('SQLite', `sqlite:${join(dir, 'bench.db')}`);
  await inFreshPgSchema((url, schema) => benchEngine('PostgreSQL', url, schema));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
