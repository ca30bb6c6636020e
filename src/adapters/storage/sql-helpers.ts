import { sql, type Expression, type SqlBool } from 'kysely';
import type { Page, PageRequest } from '../../core/shared/page.ts';

/** True for a unique-constraint failure on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * PostgreSQL refused a text it was sent (invalid byte sequence: a NUL, which its text types
 * cannot hold). No row can hold such a value there, so a lookup of it finds nothing.
 */
export function isUnstorableText(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '22021';
}

/** The text as a `like` pattern matches it, with `escape '\\'`: %, _ and \ taken literally. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Case-insensitive substring match that treats %, _ and \ in the search text literally. */
export function containsIgnoringCase(column: string, search: string): Expression<SqlBool> {
  const pattern = `%${likeLiteral(search.toLowerCase())}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

/** Case-insensitive prefix match (the column starts with the search), %, _ and \ taken literally. */
export function startsWithIgnoringCase(column: string, search: string): Expression<SqlBool> {
  const pattern = `${likeLiteral(search.toLowerCase())}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

export async function pageOf<T>(total: Promise<number>, items: Promise<T[]>, page: PageRequest): Promise<Page<T>> {
  const [count, rows] = await Promise.all([total, items]);
  return { items: rows, total: count, page: page.page, perPage: page.perPage };
}

export function countOf(row: { count: number | string | bigint | null } | undefined): number {
  return Number(row?.count ?? 0);
}
