import { offsetOf, type Page, type PageRequest } from '../../../src/core/shared/page.ts';

type OwnedRow = { id: number; accountId: number; name: string };

/** The account's rows among the ids, as copies (a caller's changes stay its own). */
export const owned = <T extends OwnedRow>(rows: readonly T[], accountId: number, ids: readonly number[]): T[] =>
  rows.filter((r) => r.accountId === accountId && ids.includes(r.id)).map((r) => ({ ...r }));

/** A page of the account's rows as the SQL stores give it: a name search ignoring case, by id. */
export function listed<T extends OwnedRow>(
  rows: readonly T[],
  accountId: number,
  filter: { search?: string | undefined; sort: 'asc' | 'desc' },
  page: PageRequest,
  more = (_: T) => true,
): Page<T> {
  const search = filter.search?.toLowerCase() ?? '';
  const all = rows
    .filter((r) => r.accountId === accountId && r.name.toLowerCase().includes(search) && more(r))
    .sort((a, b) => (filter.sort === 'asc' ? a.id - b.id : b.id - a.id));
  const from = offsetOf(page);
  return {
    items: all.slice(from, from + page.perPage).map((r) => ({ ...r })),
    total: all.length,
    page: page.page,
    perPage: page.perPage,
  };
}
