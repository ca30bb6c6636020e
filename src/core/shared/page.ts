/** A page request as the core understands it: 1-based page, bounded size. */
export interface PageRequest {
  page: number;
  perPage: number;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number;
  /** Counting stopped at `total` (a list asked for a bounded count): at least that many match. */
  totalIsLowerBound?: boolean;
}

/** How a list counts what matches: exactly, or only up to a bound when exact costs too much. */
export interface CountRequest {
  /** Stop counting here; the page then says its total is a lower bound. */
  countUpTo?: number;
}

export const PER_PAGE = { min: 10, max: 100, default: 10 } as const;

/**
 * The last page anyone may ask for: ten million links at the smallest page size. A bound keeps
 * every offset an exact integer the databases accept, so a huge number is a 422, not a crash.
 */
export const PAGE_MAX = 1_000_000;

export function offsetOf(req: PageRequest): number {
  return (req.page - 1) * req.perPage;
}
