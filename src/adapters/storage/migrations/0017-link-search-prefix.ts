import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/** The list's `search` columns (api.md §5, `by`). */
const SEARCHED = ['title', 'alias', 'url'] as const;

/**
 * Searches of one or two characters match the start of the column (issue 19, api.md §5,
 * docs/design/links.md): an index per column on its first two characters, after
 * the account. Two characters keep the keys small and under any entry-size limit, whatever the
 * length of a title or URL. The store repeats these expressions exactly (link-search.ts,
 * `prefixKey`): an index on an expression serves only that expression.
 *
 * PostgreSQL: `left(lower(col), 2)` compared under "C" (byte order, which in UTF-8 is code
 * point order), so a one-character search is a range and a two-character one an equality; `id`
 * last, as every list index, so an equality's links come in the list's order. `lower()` is the
 * database's, the same the query's `like` runs.
 *
 * SQLite: built-in functions only. linkpix replaces `lower()` on its connections with
 * JavaScript's (connect.ts); an index on it would be computed differently by any other program
 * writing the table (the sqlite3 shell) and then answer wrongly. So: `substr(col, 1, 2)` under
 * NOCASE (ASCII case folding), with the only two characters JavaScript lowers into ASCII mapped
 * to what they lower to: the Kelvin sign (U+212A, to `k`) and `İ` (U+0130, to `i` and a combining
 * dot). The store uses the index for searches in ASCII; the row's rowid (`id`) ends every index.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') {
    // "if not exists": an operator may have built them beforehand, concurrently (docs/operations.md).
    for (const column of SEARCHED) {
      await sql`create index if not exists ${sql.id(`links_prefix_${column}`)}
        on links (account_id, (left(lower(${sql.ref(column)}), 2)) collate "C", id)`.execute(db);
    }
    return;
  }
  // Kysely runs SQLite migrations outside a transaction: the three indexes come together or not at all.
  await db.transaction().execute(async (trx) => {
    for (const column of SEARCHED) {
      await sql`create index ${sql.id(`links_prefix_${column}`)}
        on links (account_id, replace(replace(substr(${sql.ref(column)}, 1, 2), char(8490), 'k'), char(304), 'i') collate nocase)`.execute(
        trx,
      );
    }
  });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of SEARCHED) await db.schema.dropIndex(`links_prefix_${column}`).ifExists().execute();
}
