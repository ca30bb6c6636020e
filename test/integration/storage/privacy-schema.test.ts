// The privacy page, /admin/data and `linkpix privacy report` are built from one description of
// the tables about visits and people (src/core/privacy/data-tables.ts). This holds it to the
// schema both engines' migrations leave: a new column in a described table, or a new table in
// no list, fails here until the description says what it holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { onEachSqlEngine } from '../../contracts/sql-database.ts';
import type { Storage } from '../../../src/adapters/storage/connect.ts';
import { OTHER_TABLES, PEOPLE_TABLES, VISITOR_TABLES } from '../../../src/core/privacy/data-tables.ts';

/** SQLite's own tables and the full-text index's shadow tables belong to link_search. */
const SQLITE_INTERNAL = /^(sqlite_|link_search_)/;

async function tablesOf({ db, engine }: Storage): Promise<string[]> {
  if (engine === 'sqlite') {
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
    return rows.map((r) => r.name).filter((n) => !SQLITE_INTERNAL.test(n));
  }
  // Partitions (clicks by month) are their parent's: only tables that are not one are listed.
  const { rows } = await sql<{ name: string }>`select c.relname as name from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition`.execute(db);
  return rows.map((r) => r.name);
}

async function columnsOf({ db, engine }: Storage, table: string): Promise<string[]> {
  const { rows } =
    engine === 'sqlite'
      ? await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)
      : await sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = current_schema() and table_name = ${table}`.execute(db);
  return rows.map((r) => r.name).sort();
}

onEachSqlEngine('privacy: the description of visitor and people data against the schema', (storage) => {
  test('every column of every described table is described, and nothing described is missing', async () => {
    for (const described of [...VISITOR_TABLES, ...PEOPLE_TABLES]) {
      const parts = storage().engine === 'postgres' ? (described.postgresParts ?? []) : [];
      for (const table of [described.table, ...parts]) {
        const actual = await columnsOf(storage(), table);
        assert.ok(actual.length > 0, `${table} is a table`);
        assert.deepEqual(
          actual,
          Object.keys(described.columns).sort(),
          `${table}: the columns of src/core/privacy/data-tables.ts are the schema's`,
        );
      }
    }
  });

  test('every table is in one list: about visitors, about people, or about neither', async () => {
    const listed = [...VISITOR_TABLES, ...PEOPLE_TABLES]
      .flatMap((t) => [t.table, ...(t.postgresParts ?? [])])
      .concat(OTHER_TABLES);
    assert.equal(new Set(listed).size, listed.length, 'no table is listed twice');
    const unplaced = (await tablesOf(storage())).filter((t) => !listed.includes(t)).sort();
    assert.deepEqual(unplaced, [], 'a new table is placed in src/core/privacy/data-tables.ts');
  });
});
