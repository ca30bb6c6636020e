import type SQLite from 'better-sqlite3';

/** The functions every linkpix connection to a SQLite file defines, the reader thread's included. */
export function defineSqliteFunctions(sqlite: SQLite.Database): void {
  // SQLite's own lower() folds ASCII only: searches must ignore case in every script ('ÉTÉ' ~ 'été').
  sqlite.function('lower', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
}
