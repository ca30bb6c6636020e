import type { LinkFilter } from '../../../../core/links/link.ts';
import type { PageRequest } from '../../../../core/shared/page.ts';
import type { WebLinkListQuery } from '../../../shared/schemas/link.ts';
import { withQuery } from '../../ui/components.ts';

/**
 * The list's state, kept in the query string with the API's names (docs/api.md §5) so the back
 * button and bookmarks work: validated by the API's own schema, but for `by`, whose default here
 * is every field (WebLinkListQuery).
 */
export type ListQuery = WebLinkListQuery;

export const DEFAULT_QUERY: ListQuery = { by: 'any', status: 0, sort: 'desc', page: 1, per_page: 10 };

export const PER_PAGE_CHOICES = [10, 25, 50, 100] as const;

/**
 * A search is matched link by link, so counting every match of a phrase found in most of a big
 * account's links would cost more than the page: the list counts a search's matches up to here
 * and says "or more" (the API's total stays exact; a bulk action counts exactly when confirmed).
 * A thousand is forty pages of the default size, more than anyone pages through (docs/design/web.md).
 */
export const SEARCH_COUNT_BOUND = 1000;

/** A validated query, or the part of one a bulk form carried, with the defaults filled in. */
export function listQueryOf(partial: Partial<ListQuery> | undefined): ListQuery {
  return { ...DEFAULT_QUERY, ...partial };
}

export function filterOf(q: ListQuery): LinkFilter {
  return {
    search: q.search,
    by: q.by,
    status: q.status,
    spaceId: q.space,
    domainId: q.domain,
    pixelId: q.pixel,
    tag: q.tag,
    health: q.health,
    sort: q.sort,
  };
}

export function pageOf(q: ListQuery): PageRequest {
  return { page: q.page, perPage: q.per_page };
}

/** Whether anything narrows the list (an empty table then means "no match", not "no links"). */
export function isNarrowed(q: ListQuery): boolean {
  return (
    Boolean(q.search) ||
    q.space !== undefined ||
    q.domain !== undefined ||
    q.pixel !== undefined ||
    q.tag !== undefined ||
    q.health !== undefined ||
    q.status !== 0
  );
}

/** The order parameters are written in, so one list has one URL. */
const PARAM_ORDER = [
  'search',
  'by',
  'space',
  'domain',
  'pixel',
  'tag',
  'health',
  'status',
  'sort',
  'per_page',
  'page',
] as const satisfies readonly (keyof ListQuery)[];

/** The query's parameters that differ from the defaults, for links and hidden fields. */
export function queryParams(q: ListQuery): Record<string, string | number | undefined> {
  const out: Record<string, string | number | undefined> = {};
  for (const key of PARAM_ORDER) {
    const value = q[key];
    if (value === undefined || value === '' || value === DEFAULT_QUERY[key]) continue;
    // `by` means nothing without a search.
    if (key === 'by' && !q.search) continue;
    out[key] = value;
  }
  return out;
}

/** The list's URL for this query (with changes: another page, no filters…). */
export function listUrl(q: ListQuery, changes: Record<string, string | number | undefined> = {}): string {
  return withQuery('/links', queryParams(q), changes);
}
