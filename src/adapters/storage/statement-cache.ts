import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct SQL texts kept prepared; beyond it the oldest goes (lists of varying length, say). */
const STATEMENTS_KEPT = 500;

/**
 * The better-sqlite3 connection as Kysely sees it, with each distinct SQL text prepared once.
 * Kysely prepares every query it runs, and SQLite parsing and planning the same text again cost
 * more than running it (docs/performance.md).
 * A statement is reused only after its previous run has returned (Kysely runs one query at a
 * time on this connection and never streams here).
 */
export function cachingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const prepared = new Map<string, SqliteStatement>();
  return {
    prepare(sql: string): SqliteStatement {
      let statement = prepared.get(sql);
      if (statement === undefined) {
        statement = sqlite.prepare(sql);
        if (prepared.size >= STATEMENTS_KEPT) prepared.delete(prepared.keys().next().value!);
        prepared.set(sql, statement);
      }
      return statement;
    },
    close(): void {
      prepared.clear();
      sqlite.close();
    },
  };
}
