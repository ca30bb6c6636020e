import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { up as prefixIndexesOf0017 } from './0017-link-search-prefix.ts';

/**
 * The short searches' indexes (migration 0017) answer a count from the index alone (issue 19:
 * a two-letter search matching a hundred thousand links of an account read each one's row).
 *
 * SQLite: the key is made exact for every search in ASCII, so the store tests the key alone and
 * SQLite counts through the index (it reads an indexed expression from the index). `İ` now maps
 * to what JavaScript lowers it to, `i` and a combining dot (U+0307), before the first two
 * characters are taken: a column starting `İx` lowers to `i̇x`, which no two ASCII characters
 * start. The Kelvin sign still maps to `k`.
 *
 * PostgreSQL: the key was exact already, but PostgreSQL answers from an index alone only when the
 * index holds the columns an expression is made of: `alias` and `title` are included (each at
 * most 255 characters, far below a btree entry's limit). `url` is not: 2 048 characters could
 * pass that limit once encoded, and its two-character searches (`ht`) match nearly every link.
 *
 * The names stay those of 0017 (the store and the operators' notes know them).
 */
const SQLITE_COLUMNS = ['title', 'alias', 'url'] as const;
const INCLUDED = ['title', 'alias'] as const;

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') {
    for (const column of INCLUDED) {
      const name = `links_prefix_${column}`;
      // An operator may have built it beforehand, concurrently (docs/operations.md).
      if (await includesColumn(db, name)) continue;
      await sql`drop index if exists ${sql.id(name)}`.execute(db);
      await sql`create index ${sql.id(name)}
        on links (account_id, (left(lower(${sql.ref(column)}), 2)) collate "C", id) include (${sql.ref(column)})`.execute(
        db,
      );
    }
    return;
  }
  // Kysely runs SQLite migrations outside a transaction: the three indexes change together or not at all.
  await db.transaction().execute(async (trx) => {
    for (const column of SQLITE_COLUMNS) {
      const name = `links_prefix_${column}`;
      await sql`drop index if exists ${sql.id(name)}`.execute(trx);
      await sql`create index ${sql.id(name)}
        on links (account_id, substr(replace(replace(substr(${sql.ref(column)}, 1, 2), char(8490), 'k'), char(304), 'i' || char(775)), 1, 2) collate nocase)`.execute(
        trx,
      );
    }
  });
}

/** Back to 0017's indexes. */
export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const changed = engine === 'postgres' ? INCLUDED : SQLITE_COLUMNS;
  for (const column of changed) await db.schema.dropIndex(`links_prefix_${column}`).ifExists().execute();
  await prefixIndexesOf0017(db, engine);
}

async function includesColumn(db: Kysely<unknown>, name: string): Promise<boolean> {
  const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes
    where schemaname = current_schema() and indexname = ${name}`.execute(db);
  return / INCLUDE \(/.test(rows[0]?.indexdef ?? '');
}
