// The list's search through its indexes finds what the scan finds: three characters or more
// anywhere in the column (migration 0009), fewer at its start (migration 0017).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { LinkStatus, type LinkSearchField } from '../../../src/core/links/link.ts';
import type { Database } from '../../../src/adapters/storage/schema.ts';
import type { Engine } from '../../../src/adapters/storage/connect.ts';
import { SqlLinkStore } from '../../../src/adapters/storage/stores/link-store.ts';
import { containsIgnoringCase, startsWithIgnoringCase } from '../../../src/adapters/storage/sql-helpers.ts';
import { migrateToLatest } from '../../../src/adapters/storage/migrations/index.ts';
import * as initial from '../../../src/adapters/storage/migrations/0001-initial.ts';
import * as clicks from '../../../src/adapters/storage/migrations/0002-clicks.ts';
import * as stats from '../../../src/adapters/storage/migrations/0003-stats.ts';
import * as appendOnlyClicks from '../../../src/adapters/storage/migrations/0004-clicks-append-only.ts';
import * as domainVerification from '../../../src/adapters/storage/migrations/0005-domain-verification.ts';
import * as webAccounts from '../../../src/adapters/storage/migrations/0006-web-accounts.ts';
import * as linkTakedown from '../../../src/adapters/storage/migrations/0007-link-takedown.ts';
import * as rollupTotals from '../../../src/adapters/storage/migrations/0008-rollup-totals-by-day.ts';
import * as linkSearch from '../../../src/adapters/storage/migrations/0009-link-search.ts';
import * as linkSearchPrefix from '../../../src/adapters/storage/migrations/0017-link-search-prefix.ts';
import * as linkSearchPrefixExact from '../../../src/adapters/storage/migrations/0018-link-search-prefix-exact.ts';
import * as linkClickCounts from '../../../src/adapters/storage/migrations/0040-link-click-counts.ts';
import { ENGINES, onEachEngine } from '../../support/harness.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';
import { insertSearchRows, linkRow } from '../../support/link-rows.ts';
import { linkStatements, planOf } from '../../support/link-statements.ts';

const BY: LinkSearchField[] = ['title', 'alias', 'url'];
const NOW = Date.parse('2026-06-01T12:00:00Z');

interface Row {
  title: string | null;
  alias: string;
  url: string;
}

/**
 * Mixed case, LIKE's own characters, FTS5's quote, letters JavaScript and SQLite's FTS5 fold
 * differently; at the start of a column too (the short searches' prefixes): the two letters
 * JavaScript lowers into ASCII (the Kelvin sign, `İ`), characters outside the BMP (an emoji, a
 * Deseret letter, which has a lower case).
 */
const ROWS: Row[] = [
  { title: 'Été à Paris', alias: 'EtePromo', url: 'https://example.com/summer?q=100%25' },
  { title: 'ÉTÉ', alias: 'ete_2026', url: 'https://Example.COM/Path/To' },
  { title: 'été', alias: 'Été', url: 'https://été.example/' },
  { title: '100% pure', alias: '100pct', url: 'https://example.com/a%b' },
  { title: '100_ pure', alias: 'snake_case_name', url: 'https://example.com/a_b?x=_' },
  { title: 'C:\\Temp\\a\\b', alias: 'back\\slash', url: 'https://example.com/back\\slash' },
  { title: 'Mixed CaSe Title', alias: 'MiXeD', url: 'HTTPS://EXAMPLE.ORG/UPPER' },
  { title: 'İstanbul', alias: 'ist', url: 'https://example.com/İstanbul' },
  { title: 'ΟΔΟΣ σοφίας', alias: 'ΟΔΟΣ', url: 'https://example.com/οδος' },
  { title: 'Ꭰbc Ꮳherokee', alias: 'ꭰbc', url: 'https://example.com/Ꭰbc' },
  { title: '\u212Aelvin sign', alias: 'kelvin', url: 'https://example.com/\u212A' },
  { title: 'a "quoted" title', alias: 'quote"d', url: 'https://example.com/"x"' },
  { title: null, alias: 'untitled', url: 'https://example.com/' },
  { title: 'ab', alias: 'x', url: 'https://e.x/' },
  { title: '%%%___\\\\\\', alias: 'only%_\\', url: 'https://example.com/%_%_' },
  { title: '_under %pct', alias: '_under', url: '\\\\unc\\share' },
  { title: '\\back first', alias: '%pct', url: 'mailto:Kelvin@example.com' },
  { title: 'kelvin lower', alias: '\u212Aayak', url: '\u212AX://odd' },
  { title: 'İİ twice', alias: 'İx', url: 'İ://x' },
  { title: 'Kx upper', alias: 'KX', url: 'kx://y' },
  { title: '😀b smile', alias: '😀b', url: 'https://😀.example/' },
  { title: '𐐀𐐨 deseret', alias: '𐐀bc', url: '𐐨://example.com/𐐀' },
];

/** One and two characters (code points): the start of the column. */
const SHORT = [
  ...[
    'e',
    'é',
    'É',
    '%',
    '_',
    '\\',
    'k',
    'K',
    '\u212A',
    '"',
    'ab',
    'ét',
    'ÉT',
    '0%',
    '_c',
    'a\\',
    '\\b',
    'Ab',
    'ος',
    'ΟΔ',
    '%_',
    '""',
  ],
  ...[
    'h',
    'HT',
    'ht',
    'i',
    'I',
    'İ',
    'İİ',
    'ix',
    'is',
    'ke',
    'KX',
    '\u212Ae',
    'x',
    'X',
    'c:',
    'C',
    '1',
    '10',
    'm',
    'ma',
    'sn',
    'un',
    '_u',
    '%p',
    '\\\\',
    '\\u',
  ],
  ...['ꭰ', 'Ꭰ', 'ꭰb', 'ο', '😀', '😀b', '😀B', '𐐀', '𐐨', '𐐀𐐨', '𐐨𐐨', '𐐀b', 'é\u0301', '~', '\x7f'],
];

const SEARCHES = [
  ...SHORT,
  // three and more: the index
  ...[
    'été',
    'ÉTÉ',
    'été à',
    'ete',
    '100%',
    '00%',
    '%25',
    '0_ ',
    '_ca',
    'se_',
    'a\\b',
    '\\te',
    ':\\t',
    'mixed case',
    'CASE',
    'https',
    'example.com',
  ],
  ...[
    'i̇st',
    'İst',
    'ist',
    'İSTANBUL',
    'οδος',
    'ΟΔΟΣ',
    'ος σ',
    'ꭰbc',
    'Ꭰbc',
    'ꮳhe',
    'kel',
    '\u212Ael',
    '"quoted"',
    'a "q',
    '"x"',
    '"""',
  ],
  ...['%%%', '___', '\\\\\\', '%_\\', 'zzzz', 'paris', 'pure', 'untitled', ' pu'],
];

/** Searches of one or two characters match the start of the column (api.md §5). */
const isShort = (search: string) => [...search].length < 3;

/**
 * What the search means (api.md §5): the column as the database lowers it, the search as
 * JavaScript does (sql-helpers.ts); one or two characters at its start, more anywhere in it.
 */
function expected(
  lowered: Map<number, Record<LinkSearchField, string | null>>,
  by: LinkSearchField,
  search: string,
): number[] {
  const needle = search.toLowerCase();
  return [...lowered]
    .filter(([, row]) => (isShort(search) ? row[by]?.startsWith(needle) : row[by]?.includes(needle)))
    .map(([id]) => id)
    .sort((a, b) => a - b);
}

async function loweredByTheDatabase(db: Kysely<Database>, accountId: number) {
  const rows = await sql<{ id: number; title: string | null; alias: string; url: string }>`
    select id, lower(title) as title, lower(alias) as alias, lower(url) as url from links where account_id = ${accountId}`.execute(
    db,
  );
  return new Map(rows.rows.map((r) => [Number(r.id), { title: r.title, alias: r.alias, url: r.url }]));
}

async function searched(
  store: SqlLinkStore,
  accountId: number,
  by: LinkSearchField,
  search: string,
): Promise<number[]> {
  const filter = { status: LinkStatus.All, by, search, sort: 'asc' } as const;
  const page = await store.list(accountId, filter, { page: 1, perPage: 100 }, NOW);
  const items = [...page.items];
  for (let next = 2; items.length < page.total && next <= Math.ceil(page.total / 100); next++)
    items.push(...(await store.list(accountId, filter, { page: next, perPage: 100 }, NOW)).items);
  assert.equal(page.total, items.length, `${by} ${JSON.stringify(search)}: total`);
  const first = await store.first(accountId, filter, 3, NOW);
  assert.deepEqual(
    first.map((l) => l.id),
    page.items.slice(0, 3).map((l) => l.id),
    `${by} ${JSON.stringify(search)}: the first few, uncounted`,
  );
  // A bounded count (the web list's, for searches) stops at its bound and says so.
  for (const bound of [1, 2, page.total + 1]) {
    const counted = await store.list(accountId, filter, { page: 1, perPage: 100 }, NOW, { countUpTo: bound });
    const what = `${by} ${JSON.stringify(search)} counted up to ${bound}`;
    assert.equal(counted.total, Math.min(page.total, bound), what);
    assert.equal(counted.totalIsLowerBound === true, page.total >= bound, what);
    assert.deepEqual(
      counted.items.map((l) => l.id),
      page.items.map((l) => l.id),
      what,
    );
  }
  return items.map((l) => l.id);
}

/** The plain predicate alone, the way it ran before migration 0009: no FTS5 table, no trigram or prefix index. */
async function scanned(
  db: Kysely<Database>,
  engine: Engine,
  accountId: number,
  by: LinkSearchField,
  search: string,
): Promise<number[]> {
  const predicate = isShort(search) ? startsWithIgnoringCase(by, search) : containsIgnoringCase(by, search);
  const run = async (d: Kysely<Database>) =>
    (
      await d
        .selectFrom('links')
        .select('id')
        .where('account_id', '=', accountId)
        .where(predicate)
        .orderBy('id')
        .execute()
    ).map((r) => r.id);
  if (engine === 'sqlite') return run(db);
  return db.transaction().execute(async (trx) => {
    // GIN indexes are only read through bitmap scans.
    await sql`set local enable_bitmapscan = off`.execute(trx);
    return run(trx);
  });
}

/**
 * PostgreSQL: the same predicate answered through the pg_trgm index (a table this small would be
 * scanned). The prefix index of the column holds the column too (migration 0018), and a scan of
 * it all may look cheaper: it is dropped for the statement, in a transaction rolled back.
 */
async function throughTrigramIndex(
  db: Kysely<Database>,
  accountId: number,
  by: LinkSearchField,
  search: string,
): Promise<number[]> {
  const trx = await db.startTransaction().execute();
  try {
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local enable_indexscan = off`.execute(trx);
    await sql`drop index if exists ${sql.id(`links_prefix_${by}`)}`.execute(trx);
    const q = trx
      .selectFrom('links')
      .select('id')
      .where(sql<number>`account_id + 0`, '=', accountId)
      .where(containsIgnoringCase(by, search))
      .orderBy('id');
    const plan = (await q.explain()).map((r) => Object.values(r).join(' ')).join('\n');
    assert.match(plan, new RegExp(`Bitmap Index Scan on links_search_${by}`), plan);
    return (await q.execute()).map((r) => r.id);
  } finally {
    await trx.rollback().execute();
  }
}

/** A few of every kind (short, long, LIKE's characters, letters folded apart): for a second pass over the same rules. */
const SAMPLE = ['e', 'É', '%', 'İ', '😀b', 'été', '100%', '_ca', 'a\\b', 'İst', 'οδος', '\u212Ael', '"quoted"', 'zzzz'];

interface AgreementOptions {
  /** The searches (all by default). */
  searches?: readonly string[];
  /** PostgreSQL: also through the pg_trgm index alone (its plan and rows), which costs a transaction a search. */
  trigram?: boolean;
}

async function assertAgreement(
  db: Kysely<Database>,
  engine: Engine,
  accountId: number,
  when: string,
  options: AgreementOptions = {},
): Promise<void> {
  const { searches = SEARCHES, trigram = false } = options;
  const store = new SqlLinkStore(db, engine);
  const lowered = await loweredByTheDatabase(db, accountId);
  for (const by of BY) {
    for (const search of searches) {
      const found = await searched(store, accountId, by, search);
      const what = `${when}: ${by} ${JSON.stringify(search)}`;
      assert.deepEqual(found, expected(lowered, by, search), what);
      assert.deepEqual(found, await scanned(db, engine, accountId, by, search), `${what} (scan)`);
      if (trigram && engine === 'postgres' && !isShort(search))
        assert.deepEqual(await throughTrigramIndex(db, accountId, by, search), found, `${what} (pg_trgm)`);
    }
  }
}

/** Many links whose columns start with anything (seeded, so every run has the same): the short searches' indexes are worth reading. */
function spread(count: number): Row[] {
  const letters = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let seed = 19;
  const word = () =>
    Array.from({ length: 6 }, () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return letters[seed % letters.length];
    }).join('');
  return Array.from({ length: count }, (_, i) => {
    const w = word();
    return {
      title: `${w[0]!.toUpperCase()}${w.slice(1)} ${word()}`,
      alias: `${word()}${i}`,
      url: `${word()}://example.com/${w}`,
    };
  });
}

/**
 * Searches the short searches' indexes serve: on PostgreSQL any (but a NUL or a lone surrogate),
 * on SQLite those whose lower case is ASCII (its NOCASE folds no other letter).
 */
function servedByPrefixIndex(engine: Engine, search: string): boolean {
  // eslint-disable-next-line no-control-regex -- ASCII is the point
  return isShort(search) && (engine === 'postgres' || /^[\x00-\x7f]*$/.test(search.toLowerCase()));
}

/** The statements on `links` the store runs for a search (its pages, totals and first few), as compiled. */
function statementsOf(db: Kysely<Database>, engine: Engine, accountId: number, by: LinkSearchField, search: string) {
  const filter = { status: LinkStatus.All, by, search, sort: 'desc' } as const;
  return linkStatements(db, engine, async (store) => {
    await store.list(accountId, filter, { page: 1, perPage: 10 }, NOW);
    await store.list(accountId, filter, { page: 1, perPage: 10 }, NOW, { countUpTo: 10_000 });
    await store.first(accountId, filter, 3, NOW);
  });
}

/**
 * Whether a plan reads `links_prefix_{col}` by its key, the first two characters (SQLite also
 * reads an index by its first column alone, here as it would `links_account`).
 */
function readsPrefixKey(engine: Engine, by: LinkSearchField, plan: string): boolean {
  if (engine === 'sqlite')
    return new RegExp(`USING (?:COVERING )?INDEX links_prefix_${by} \\(account_id=\\? AND <expr>`).test(plan);
  return new RegExp(`links_prefix_${by} .*\\n\\s*Index Cond: \\(\\(account_id = \\d+\\) AND \\(\\("left"\\(lower`).test(
    plan,
  );
}

/**
 * A short search is found as its meaning says, and its statements (page, total, first few) read
 * `links_prefix_{col}` by its key if `reads` (never if false; as the planner likes if undefined).
 * SQLite's bounded count of a one-character range (link-search.ts, COMMON_PREFIX) is left out: it
 * reads the key whatever it then finds.
 */
async function assertShortSearch(
  db: Kysely<Database>,
  engine: Engine,
  accountId: number,
  by: LinkSearchField,
  search: string,
  reads: boolean | undefined,
  when: string,
): Promise<void> {
  const what = `${when}: ${by} ${JSON.stringify(search)}`;
  const found = await searched(new SqlLinkStore(db, engine), accountId, by, search);
  assert.deepEqual(found, expected(await loweredByTheDatabase(db, accountId), by, search), what);
  if (reads === undefined) return;
  const statements = (await statementsOf(db, engine, accountId, by, search)).filter(
    (q) => !q.sql.includes('as "prefixed"'),
  );
  assert.equal(statements.length, 5, `${what}\n${statements.map((q) => q.sql).join('\n')}`);
  for (const statement of statements) {
    const plan = await planOf(db, engine, statement);
    // A page in id order of a one-character search (a range of keys, not in id order) may be read
    // on PostgreSQL by walking the account's links by id, when the planner expects the page's few
    // soon: it stops there, which costs less than the range and a sort. A two-character search's
    // keys are equal, so its links come off the index by id; a count has nothing to stop at.
    if (reads && engine === 'postgres' && /order by/.test(statement.sql) && [...search.toLowerCase()].length === 1)
      continue;
    assert.equal(readsPrefixKey(engine, by, plan), reads, `${what}\n${statement.sql}\n${plan}`);
  }
}

/** Every short search (or those given), through the prefix indexes where they serve it. */
async function assertPrefixPlans(
  db: Kysely<Database>,
  engine: Engine,
  accountId: number,
  when: string,
  searches: readonly string[] = SHORT,
): Promise<void> {
  for (const by of BY) {
    for (const search of searches)
      await assertShortSearch(db, engine, accountId, by, search, servedByPrefixIndex(engine, search), when);
  }
}

/** A link's row as the tests write it straight in SQL, under the alias given. */
function rowOf(accountId: number, r: Row, alias: string) {
  return linkRow(accountId, alias, { url: r.url, title: r.title, created_at: NOW, updated_at: NOW });
}

/** One row at a time, answering their ids (each alias suffixed with the account, unique across accounts). */
async function insertRows(db: Kysely<Database>, accountId: number, rows: Row[]): Promise<number[]> {
  const ids: number[] = [];
  for (const r of rows) {
    const made = await db
      .insertInto('links')
      .values(rowOf(accountId, r, `${r.alias}-${accountId}`))
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(made.id);
  }
  return ids;
}

/** Many rows at once (their aliases as given). */
const insertMany = (db: Kysely<Database>, accountId: number, rows: Row[]) => insertSearchRows(db, accountId, rows, NOW);

onEachEngine('link search: the indexes find what the scan finds', (h) => {
  test('every column, searches of 1, 2 and 3+ characters, then after edits and deletes', async () => {
    const db = h().server.container.storage.db;
    const engine = h().server.container.storage.engine;
    const account = await h().account();
    const other = await h().account();
    // Through the API (its insert) and straight in SQL; another account's twins never show.
    for (const [i, r] of ROWS.slice(0, 3).entries()) {
      const made = await h().request('POST', '/api/v1/links', {
        key: account.key,
        form: { url: 'https://example.com/made', alias: `Api-${i}`, title: r.title },
      });
      assert.equal(made.status, 201, made.text);
    }
    const ids = await insertRows(db, account.id, ROWS);
    await insertRows(db, other.id, ROWS);
    await assertAgreement(db, engine, account.id, 'as made', { trigram: true });

    // Edits through the API and in SQL; a click count alone; deletes both ways.
    const edited = await h().request('PUT', `/api/v1/links/${ids[0]}`, {
      key: account.key,
      form: { title: 'Winter in Oslo', alias: 'OsloPromo' },
    });
    assert.equal(edited.status, 200, edited.text);
    await sql`update links set title = ${'Été % _ \\ again'}, url = ${'https://example.com/Été'} where id = ${ids[6]}`.execute(
      db,
    );
    await sql`update links set title = null where id = ${ids[3]}`.execute(db);
    await sql`update links set clicks = clicks + 5 where account_id = ${account.id}`.execute(db);
    assert.equal((await h().request('DELETE', `/api/v1/links/${ids[1]}`, { key: account.key })).status, 200);
    await sql`delete from links where id = ${ids[8]}`.execute(db);
    await assertAgreement(db, engine, account.id, 'after edits');

    // Phrases found in thousands of links (of any account) are searched by a scan on SQLite
    // rather than through FTS5 (link-search.ts, RARE_PHRASE): the same rows either way. Searches
    // of one or two characters never go through FTS5.
    const filler = Array.from({ length: 2500 }, (_, i) => ({
      alias: `filler-${i}`,
      url: `https://example.com/filler/${i}`,
      title: `Filler été ${i} pure kelvin`,
    }));
    await insertMany(db, other.id, filler);
    await assertAgreement(db, engine, account.id, 'beside common phrases', {
      searches: SEARCHES.filter((s) => !isShort(s)),
    });
    const store = new SqlLinkStore(db, engine);
    assert.deepEqual(await searched(store, account.id, 'title', 'oslo'), [ids[0]]);
    assert.deepEqual(await searched(store, account.id, 'alias', 'EtePromo'), []);
    assert.deepEqual(await searched(store, account.id, 'title', 'ΟΔΟΣ'), []);
  });

  test('a search of a common word and a rare one: the same links; on PostgreSQL the index reads the rare word alone', async () => {
    const db = h().server.container.storage.db;
    const engine = h().server.container.storage.engine;
    const account = await h().account();
    await insertRows(db, account.id, ROWS);
    await insertMany(
      db,
      account.id,
      Array.from({ length: 3000 }, (_, i) => ({
        title: `Title ${i}`,
        alias: `titled-${i}`,
        url: `https://example.com/titled/${i}`,
      })),
    );
    if (engine === 'postgres') await sql`analyze links`.execute(db);
    const lowered = await loweredByTheDatabase(db, account.id);
    for (const search of ['itle 1234', 'Title 12', 'title 9 ', 'example.com/titled/2999', 'le 12']) {
      const by = search.startsWith('example') ? 'url' : 'title';
      const found = await searched(new SqlLinkStore(db, engine), account.id, by, search);
      assert.deepEqual(found, expected(lowered, by, search), search);
      assert.deepEqual(found, await scanned(db, engine, account.id, by, search), `${search} (scan)`);
    }
    if (engine !== 'postgres') return;
    // `itle` is in every title, 1234 in one: only 1234 is given to the index (as a `like`; the
    // plan this small a table gets may not read the index at all).
    const statements = await statementsOf(db, engine, account.id, 'title', 'itle 1234');
    assert.equal(statements.length, 5);
    for (const q of statements) {
      assert.ok(q.parameters.includes('%1234%'), q.sql);
      assert.ok(
        !q.parameters.some((p) => typeof p === 'string' && p.includes('itle') && p.startsWith('%')),
        `${q.sql} ${JSON.stringify(q.parameters)}`,
      );
    }
  });

  test('one or two characters go through the prefix indexes (an ASCII search on SQLite, any on PostgreSQL)', async () => {
    const db = h().server.container.storage.db;
    const engine = h().server.container.storage.engine;
    const account = await h().account();
    await insertRows(db, account.id, ROWS);
    await insertMany(db, account.id, spread(1500));
    if (engine === 'postgres') await sql`analyze links`.execute(db);
    await assertPrefixPlans(db, engine, account.id, 'beside 1 500 links');

    // A first character common to thousands of the account's links (URLs' h): on SQLite a page
    // walks the account's links by id rather than sorting them all (link-search.ts, COMMON_PREFIX);
    // PostgreSQL's planner decides from its statistics. Two characters keep the index.
    const common = Array.from({ length: 2000 }, (_, i) => ({
      title: `Common ${i}`,
      alias: `common-${i}`,
      url: `https://example.com/common/${i}`,
    }));
    await insertMany(db, account.id, common);
    if (engine === 'postgres') await sql`analyze links`.execute(db);
    const onSqlite = (reads: boolean) => (engine === 'sqlite' ? reads : undefined);
    for (const search of ['h', 'H'])
      await assertShortSearch(db, engine, account.id, 'url', search, onSqlite(false), 'common');
    for (const search of ['ht', 'HT', 'c', 'co'])
      await assertShortSearch(db, engine, account.id, 'url', search, onSqlite(true), 'common');
    for (const search of ['c', 'C', 'co'])
      await assertShortSearch(db, engine, account.id, 'alias', search, onSqlite(search.length === 2), 'common');
  });
});

const BEFORE_0009 = [
  initial,
  clicks,
  stats,
  appendOnlyClicks,
  domainVerification,
  webAccounts,
  linkTakedown,
  rollupTotals,
];

for (const engine of ENGINES) {
  test(
    `migration 0009 [${engine.name}]: links made before it are found, and it goes again`,
    { skip: engine.skip ?? false },
    async () => {
      await withEmptyStorage(engine.name, async (storage) => {
        const db = storage.db as never as Kysely<unknown>;
        for (const m of BEFORE_0009) await m.up(db, engine.name);
        // Today's link reads add the clicks not yet settled (a later migration's table).
        await linkClickCounts.up(db, engine.name);
        await sql`insert into accounts (name, email, timezone, created_at) values ('a', 'a@example.com', 'UTC', 0)`.execute(
          db,
        );
        await insertRows(storage.db, 1, ROWS);
        await linkSearch.up(db, engine.name);
        await assertAgreement(storage.db, engine.name, 1, 'backfilled');
        await linkSearch.down(db, engine.name);
        await linkSearch.up(db, engine.name);
        await insertRows(
          storage.db,
          1,
          ROWS.map((r) => ({ ...r, alias: `${r.alias}-again` })),
        );
        await assertAgreement(storage.db, engine.name, 1, 'again', { searches: SAMPLE });
      });
    },
  );
}

for (const engine of ENGINES) {
  test(
    `migrations 0017 and 0018 [${engine.name}]: the prefix indexes serve links made before them; down drops them, and they go again`,
    { skip: engine.skip ?? false },
    async () => {
      await withEmptyStorage(engine.name, async (storage) => {
        const db = storage.db as never as Kysely<unknown>;
        await migrateToLatest(storage.db, engine.name);
        await linkSearchPrefixExact.down(db, engine.name);
        await linkSearchPrefix.down(db);
        await sql`insert into accounts (name, email, timezone, created_at) values ('a', 'a@example.com', 'UTC', 0)`.execute(
          db,
        );
        await insertRows(storage.db, 1, ROWS);
        await insertMany(storage.db, 1, spread(1500));
        if (engine.name === 'postgres') await sql`analyze links`.execute(db);
        for (const search of ['e', 'KX', 'é'])
          await assertShortSearch(storage.db, engine.name, 1, 'title', search, false, 'before');
        await linkSearchPrefix.up(db, engine.name);
        await linkSearchPrefixExact.up(db, engine.name);
        if (engine.name === 'postgres') await sql`analyze links`.execute(db);
        await assertPrefixPlans(storage.db, engine.name, 1, 'built');
        await linkSearchPrefixExact.down(db, engine.name);
        await linkSearchPrefix.down(db);
        await linkSearchPrefix.up(db, engine.name);
        await linkSearchPrefixExact.up(db, engine.name);
        await insertRows(
          storage.db,
          1,
          ROWS.map((r) => ({ ...r, alias: `${r.alias}-again` })),
        );
        if (engine.name === 'postgres') await sql`analyze links`.execute(db);
        await assertPrefixPlans(storage.db, engine.name, 1, 'again', SAMPLE.filter(isShort));
      });
    },
  );
}
