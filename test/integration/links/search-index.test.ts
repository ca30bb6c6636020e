// The list's search through its index (migration 0009) finds what the substring scan finds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { LinkStatus, type LinkSearchField } from '../../../src/core/links/link.ts';
import type { Database } from '../../../src/adapters/storage/schema.ts';
import type { Engine } from '../../../src/adapters/storage/connect.ts';
import { SqlLinkStore } from '../../../src/adapters/storage/stores/link-store.ts';
import { containsIgnoringCase } from '../../../src/adapters/storage/sql-helpers.ts';
import * as initial from '../../../src/adapters/storage/migrations/0001-initial.ts';
import * as clicks from '../../../src/adapters/storage/migrations/0002-clicks.ts';
import * as stats from '../../../src/adapters/storage/migrations/0003-stats.ts';
import * as appendOnlyClicks from '../../../src/adapters/storage/migrations/0004-clicks-append-only.ts';
import * as domainVerification from '../../../src/adapters/storage/migrations/0005-domain-verification.ts';
import * as webAccounts from '../../../src/adapters/storage/migrations/0006-web-accounts.ts';
import * as linkTakedown from '../../../src/adapters/storage/migrations/0007-link-takedown.ts';
import * as rollupTotals from '../../../src/adapters/storage/migrations/0008-rollup-totals-by-day.ts';
import * as linkSearch from '../../../src/adapters/storage/migrations/0009-link-search.ts';
import { ENGINES, onEachEngine } from '../../support/harness.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';

const BY: LinkSearchField[] = ['title', 'alias', 'url'];
const NOW = Date.parse('2026-06-01T12:00:00Z');

interface Row {
  title: string | null;
  alias: string;
  url: string;
}

/** Mixed case, LIKE's own characters, FTS5's quote, letters JavaScript and SQLite's FTS5 fold differently. */
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
];

const SEARCHES = [
  // one and two characters: the scan
  ...['e', 'é', 'É', '%', '_', '\\', 'k', '"', 'ab', 'ét', 'ÉT', '0%', '_c', 'a\\', '\\b', 'Ab', 'ος', '%_', '""'],
  // three and more: the index
  ...['été', 'ÉTÉ', 'été à', 'ete', '100%', '00%', '%25', '0_ ', '_ca', 'se_', 'a\\b', '\\te', ':\\t', 'mixed case', 'CASE', 'https', 'example.com'],
  ...['i̇st', 'İst', 'ist', 'İSTANBUL', 'οδος', 'ΟΔΟΣ', 'ος σ', 'ꭰbc', 'Ꭰbc', 'ꮳhe', 'kel', '\u212Ael', '"quoted"', 'a "q', '"x"', '"""'],
  ...['%%%', '___', '\\\\\\', '%_\\', 'zzzz', 'paris', 'pure', 'untitled', ' pu'],
];

/** What the scan means (api.md §5): the column as the database lowers it, the search as JavaScript does (sql-helpers.ts). */
function expected(lowered: Map<number, Record<LinkSearchField, string | null>>, by: LinkSearchField, search: string): number[] {
  const needle = search.toLowerCase();
  return [...lowered]
    .filter(([, row]) => row[by]?.includes(needle))
    .map(([id]) => id)
    .sort((a, b) => a - b);
}

async function loweredByTheDatabase(db: Kysely<Database>, accountId: number) {
  const rows = await sql<{ id: number; title: string | null; alias: string; url: string }>`
    select id, lower(title) as title, lower(alias) as alias, lower(url) as url from links where account_id = ${accountId}`.execute(db);
  return new Map(rows.rows.map((r) => [Number(r.id), { title: r.title, alias: r.alias, url: r.url }]));
}

async function searched(store: SqlLinkStore, accountId: number, by: LinkSearchField, search: string): Promise<number[]> {
  const filter = { status: LinkStatus.All, by, search, sort: 'asc' } as const;
  const page = await store.list(accountId, filter, { page: 1, perPage: 100 }, NOW);
  assert.equal(page.total, page.items.length, `${by} ${JSON.stringify(search)}: total`);
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
  return page.items.map((l) => l.id);
}

/** The plain predicate alone, the way it ran before migration 0009: no FTS5 table, no trigram index. */
async function scanned(db: Kysely<Database>, engine: Engine, accountId: number, by: LinkSearchField, search: string): Promise<number[]> {
  const run = async (d: Kysely<Database>) =>
    (await d.selectFrom('links').select('id').where('account_id', '=', accountId).where(containsIgnoringCase(by, search)).orderBy('id').execute()).map((r) => r.id);
  if (engine === 'sqlite') return run(db);
  return db.transaction().execute(async (trx) => {
    // GIN indexes are only read through bitmap scans.
    await sql`set local enable_bitmapscan = off`.execute(trx);
    return run(trx);
  });
}

/** PostgreSQL: the same predicate answered through the pg_trgm index (a table this small would be scanned). */
async function throughTrigramIndex(db: Kysely<Database>, accountId: number, by: LinkSearchField, search: string): Promise<number[]> {
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local enable_indexscan = off`.execute(trx);
    const q = trx
      .selectFrom('links')
      .select('id')
      .where(sql<number>`account_id + 0`, '=', accountId)
      .where(containsIgnoringCase(by, search))
      .orderBy('id');
    const plan = (await q.explain()).map((r) => Object.values(r).join(' ')).join('\n');
    assert.match(plan, new RegExp(`Bitmap Index Scan on links_search_${by}`), plan);
    return (await q.execute()).map((r) => r.id);
  });
}

async function assertAgreement(db: Kysely<Database>, engine: Engine, accountId: number, when: string): Promise<void> {
  const store = new SqlLinkStore(db, engine);
  const lowered = await loweredByTheDatabase(db, accountId);
  for (const by of BY) {
    for (const search of SEARCHES) {
      const found = await searched(store, accountId, by, search);
      const what = `${when}: ${by} ${JSON.stringify(search)}`;
      assert.deepEqual(found, expected(lowered, by, search), what);
      assert.deepEqual(found, await scanned(db, engine, accountId, by, search), `${what} (scan)`);
      if (engine === 'postgres') assert.deepEqual(await throughTrigramIndex(db, accountId, by, search), found, `${what} (pg_trgm)`);
    }
  }
}

async function insertRows(db: Kysely<Database>, accountId: number, rows: Row[]): Promise<number[]> {
  const ids: number[] = [];
  for (const r of rows) {
    const made = await db
      .insertInto('links')
      .values({
        account_id: accountId,
        alias: `${r.alias}-${accountId}`,
        alias_key: `${r.alias}-${accountId}`.toLowerCase(),
        url: r.url,
        title: r.title,
        target_type: 0,
        disabled: 0,
        privacy: 0,
        created_at: NOW,
        updated_at: NOW,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(made.id);
  }
  return ids;
}

onEachEngine('link search: the index finds what the substring scan finds', (h) => {
  test('every column, searches of 1, 2 and 3+ characters, then after edits and deletes', async () => {
    const db = h().server.container.storage.db;
    const engine = h().server.container.storage.engine;
    const account = await h().account();
    const other = await h().account();
    // Through the API (its insert) and straight in SQL; another account's twins never show.
    for (const [i, r] of ROWS.slice(0, 3).entries()) {
      const made = await h().request('POST', '/api/v1/links', { key: account.key, form: { url: 'https://example.com/made', alias: `Api-${i}`, title: r.title } });
      assert.equal(made.status, 201, made.text);
    }
    const ids = await insertRows(db, account.id, ROWS);
    await insertRows(db, other.id, ROWS);
    await assertAgreement(db, engine, account.id, 'as made');

    // Edits through the API and in SQL; a click count alone; deletes both ways.
    const edited = await h().request('PUT', `/api/v1/links/${ids[0]}`, { key: account.key, form: { title: 'Winter in Oslo', alias: 'OsloPromo' } });
    assert.equal(edited.status, 200, edited.text);
    await sql`update links set title = ${'Été % _ \\ again'}, url = ${'https://example.com/Été'} where id = ${ids[6]}`.execute(db);
    await sql`update links set title = null where id = ${ids[3]}`.execute(db);
    await sql`update links set clicks = clicks + 5 where account_id = ${account.id}`.execute(db);
    assert.equal((await h().request('DELETE', `/api/v1/links/${ids[1]}`, { key: account.key })).status, 200);
    await sql`delete from links where id = ${ids[8]}`.execute(db);
    await assertAgreement(db, engine, account.id, 'after edits');

    // Phrases found in thousands of links (of any account) are searched by a scan on SQLite
    // rather than through FTS5 (link-store.ts, RARE_PHRASE): the same rows either way.
    const filler = Array.from({ length: 2500 }, (_, i) => ({
      account_id: other.id,
      alias: `filler-${i}`,
      alias_key: `filler-${i}`,
      url: `https://example.com/filler/${i}`,
      title: `Filler été ${i} pure kelvin`,
      target_type: 0,
      disabled: 0,
      privacy: 0,
      created_at: NOW,
      updated_at: NOW,
    }));
    for (let i = 0; i < filler.length; i += 500)
      await db
        .insertInto('links')
        .values(filler.slice(i, i + 500))
        .execute();
    await assertAgreement(db, engine, account.id, 'beside common phrases');
    const store = new SqlLinkStore(db, engine);
    assert.deepEqual(await searched(store, account.id, 'title', 'oslo'), [ids[0]]);
    assert.deepEqual(await searched(store, account.id, 'alias', 'EtePromo'), []);
    assert.deepEqual(await searched(store, account.id, 'title', 'ΟΔΟΣ'), []);
  });
});

const BEFORE_0009 = [initial, clicks, stats, appendOnlyClicks, domainVerification, webAccounts, linkTakedown, rollupTotals];

for (const engine of ENGINES) {
  test(`migration 0009 [${engine.name}]: links made before it are found, and it goes again`, { skip: engine.skip ?? false }, async () => {
    await withEmptyStorage(engine.name, async (storage) => {
      const db = storage.db as never as Kysely<unknown>;
      for (const m of BEFORE_0009) await m.up(db, engine.name);
      await sql`insert into accounts (name, email, timezone, created_at) values ('a', 'a@example.com', 'UTC', 0)`.execute(db);
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
      await assertAgreement(storage.db, engine.name, 1, 'again');
    });
  });
}
