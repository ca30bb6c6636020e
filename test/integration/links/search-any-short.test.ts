// The default search of the list (any column) with one or two characters: the links whose alias,
// URL or title starts with it, whichever columns the store reads (issue 31: on PostgreSQL it
// leaves out the columns no link of the account starts with, link-search.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { LinkStatus, type LinkSearchField } from '../../../src/core/links/link.ts';
import type { Database } from '../../../src/adapters/storage/schema.ts';
import type { Engine } from '../../../src/adapters/storage/connect.ts';
import { SqlLinkStore } from '../../../src/adapters/storage/stores/link-store.ts';
import { startsWithIgnoringCase } from '../../../src/adapters/storage/sql-helpers.ts';
import { onEachEngine } from '../../support/harness.ts';
import { insertSearchRows } from '../../support/link-rows.ts';
import { linkStatements, planOf } from '../../support/link-statements.ts';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const FIELDS: LinkSearchField[] = ['alias', 'url', 'title'];

interface Row {
  alias: string;
  url: string;
  title: string | null;
}

/** Columns starting alike and not, in mixed case, with LIKE's characters and letters that lower to two. */
const ROWS: Row[] = [
  { alias: 'b4-first', url: 'https://example.com/1', title: 'Product page 1' },
  { alias: 'promo', url: 'b4://odd-scheme', title: 'Spring' },
  { alias: 'spring', url: 'https://example.com/2', title: 'B4 launch' },
  { alias: 'B4X', url: 'HTTPS://EXAMPLE.ORG', title: 'Über' },
  { alias: 'über', url: 'https://example.com/über', title: 'über alles' },
  { alias: '%off', url: 'https://example.com/%', title: '%_ sale' },
  { alias: '_under', url: 'https://example.com/_', title: null },
  { alias: 'İstanbul', url: 'https://example.com/ist', title: 'İİ twice' },
  { alias: 'kelvin', url: '\u212Aelvin://x', title: 'Kelvin' },
  { alias: '😀b', url: 'https://😀.example', title: '😀B' },
];

const SEARCHES = [
  'b',
  'B',
  'b4',
  'B4',
  'h',
  'ht',
  'HT',
  's',
  'sp',
  'pr',
  'ü',
  'Ü',
  'üb',
  '%',
  '%o',
  '_',
  '_u',
  'i',
  'İ',
  'İİ',
  'k',
  'ke',
  '\u212Ae',
  '😀',
  '😀b',
  'zz',
  'q',
];

/** Many links whose aliases start `b4` among the oldest only, and whose other columns never do: the newest hundreds match nothing. */
function aliasesFarBack(count: number): Row[] {
  return Array.from({ length: count }, (_, i) => ({
    alias: i < count / 5 ? `b4-${i}` : `n${i}`,
    url: `https://example.com/products/${i}`,
    title: `Product page ${i}`,
  }));
}

const insertMany = (db: Kysely<Database>, accountId: number, rows: Row[], suffix = '') =>
  insertSearchRows(db, accountId, rows, NOW, suffix);

/** What the search means (api.md §5): any column, as the database lowers it, starts with the search as JavaScript lowers it. */
async function expected(db: Kysely<Database>, accountId: number, search: string): Promise<number[]> {
  const { rows } = await sql<{ id: number; alias: string; url: string; title: string | null }>`
    select id, lower(alias) as alias, lower(url) as url, lower(title) as title from links where account_id = ${accountId}`.execute(
    db,
  );
  const needle = search.toLowerCase();
  return rows
    .filter((r) => FIELDS.some((f) => r[f]?.startsWith(needle)))
    .map((r) => Number(r.id))
    .sort((a, b) => b - a);
}

/** The straightforward read: the three columns' tests at once, link by link, no index in mind. */
async function scanned(db: Kysely<Database>, accountId: number, search: string): Promise<number[]> {
  const rows = await db
    .selectFrom('links')
    .select('id')
    .where('account_id', '=', accountId)
    .where((eb) => eb.or(FIELDS.map((f) => startsWithIgnoringCase(f, search))))
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => r.id);
}

/** Every page of the store's default search, newest first, with its exact total and its bounded counts. */
async function listed(store: SqlLinkStore, accountId: number, search: string): Promise<number[]> {
  const filter = { status: LinkStatus.All, by: 'any', search, sort: 'desc' } as const;
  const perPage = 50;
  const first = await store.list(accountId, filter, { page: 1, perPage }, NOW);
  const ids = first.items.map((l) => l.id);
  for (let page = 2; page <= Math.ceil(first.total / perPage); page++)
    ids.push(...(await store.list(accountId, filter, { page, perPage }, NOW)).items.map((l) => l.id));
  assert.equal(first.total, ids.length, `${JSON.stringify(search)}: total`);
  for (const bound of [1, 3, first.total + 1]) {
    const counted = await store.list(accountId, filter, { page: 1, perPage }, NOW, { countUpTo: bound });
    assert.equal(counted.total, Math.min(first.total, bound), `${JSON.stringify(search)} counted up to ${bound}`);
    assert.deepEqual(
      counted.items.map((l) => l.id),
      first.items.map((l) => l.id),
      `${JSON.stringify(search)}: the page counted up to ${bound}`,
    );
  }
  return ids;
}

async function assertAgreement(db: Kysely<Database>, engine: Engine, accountId: number, when: string): Promise<void> {
  const store = new SqlLinkStore(db, engine);
  for (const search of SEARCHES) {
    const what = `${when}: ${JSON.stringify(search)}`;
    const found = await listed(store, accountId, search);
    assert.deepEqual(found, await expected(db, accountId, search), what);
    assert.deepEqual(found, await scanned(db, accountId, search), `${what} (the scan)`);
  }
}

/** The statements on `links` of a page and a bounded count of the default search, as compiled (the probes included). */
function statementsOf(db: Kysely<Database>, engine: Engine, accountId: number, search: string) {
  return linkStatements(db, engine, (store) =>
    store.list(accountId, { status: LinkStatus.All, by: 'any', search, sort: 'desc' }, { page: 1, perPage: 25 }, NOW, {
      countUpTo: 1000,
    }),
  );
}

onEachEngine('link search of any column, one or two characters', (h) => {
  test('the links of the three columns, as the scan finds them: every page, the total and the bounded counts', async () => {
    const db = h().server.container.storage.db;
    const engine = h().server.container.storage.engine;
    const account = await h().account();
    const other = await h().account();
    await insertMany(db, account.id, ROWS);
    // Another account's twins, older and newer, never show.
    await insertMany(db, other.id, ROWS, '-other');
    await assertAgreement(db, engine, account.id, 'a few links');
    await insertMany(db, account.id, aliasesFarBack(1500), '-bulk');
    await insertMany(db, other.id, aliasesFarBack(300), '-other');
    if (engine === 'postgres') await sql`analyze links`.execute(db);
    await assertAgreement(db, engine, account.id, 'beside 1 500 more');
    // A column that had no match gains one: it is read again.
    await sql`update links set title = ${'b4 now'} where account_id = ${account.id} and alias = ${'n1499-bulk'}`.execute(
      db,
    );
    await assertAgreement(db, engine, account.id, 'after an edit');
  });

  test('PostgreSQL: a two-character search that starts aliases only reads the alias prefix index, for the page and the count', async (t) => {
    const db = h().server.container.storage.db;
    const engine = h().server.container.storage.engine;
    if (engine !== 'postgres') return t.skip('SQLite unites the three prefix indexes (link-search.ts)');
    const account = await h().account();
    await insertMany(db, account.id, aliasesFarBack(3000), `-${account.id}`);
    await sql`analyze links`.execute(db);
    const statements = await statementsOf(db, engine, account.id, 'b4');
    const reads = statements.filter((q) => !q.sql.startsWith('select (select 1'));
    assert.equal(reads.length, 2, statements.map((q) => q.sql).join('\n'));
    for (const q of reads) {
      assert.doesNotMatch(q.sql, /"url"|"title"/, q.sql);
      const plan = await planOf(db, engine, q);
      assert.match(plan, /links_prefix_alias on links/, `${q.sql}\n${plan}`);
      assert.doesNotMatch(plan, /Seq Scan|links_pkey/, `${q.sql}\n${plan}`);
    }
  });
});
