import type { Page } from '../../core/shared/page.ts';

export const one = <T>(data: T) => ({ data, status: 200 as const });
export const created = <T>(data: T) => ({ data, status: 201 as const });
/** A saved record, with `warnings` only when something about it is odd. */
export function saved<T>(data: T, status: 200 | 201, warnings: ReadonlyArray<{ field: string; message: string }>) {
  return warnings.length === 0 ? { data, status } : { data, warnings, status };
}
export const deleted = (object: string, id: number) => ({ id, object, deleted: true as const, status: 200 as const });

/**
 * The paginated envelope phpShort clients read. Page links are absolute and keep every
 * filter the client sent, so following `next` gives the next page of the same list.
 */
export function list<T, R>(page: Page<T>, map: (item: T) => R, baseUrl: string, path: string, rawQuery: string) {
  const lastPage = Math.max(1, Math.ceil(page.total / page.perPage));
  const params = new URLSearchParams(rawQuery);
  params.delete('page');
  const url = (n: number) => {
    const q = new URLSearchParams(params);
    q.set('page', String(n));
    return `${baseUrl}${path}?${q.toString()}`;
  };
  const from = page.items.length > 0 ? (page.page - 1) * page.perPage + 1 : null;
  return {
    data: page.items.map(map),
    links: {
      first: url(1),
      last: url(lastPage),
      prev: page.page > 1 ? url(Math.min(page.page - 1, lastPage)) : null,
      next: page.page < lastPage ? url(page.page + 1) : null,
    },
    meta: {
      current_page: page.page,
      from,
      last_page: lastPage,
      path: `${baseUrl}${path}`,
      per_page: page.perPage,
      to: from === null ? null : from + page.items.length - 1,
      total: page.total,
    },
    status: 200 as const,
  };
}
