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
}

export const PER_PAGE = { min: 10, max: 100, default: 10 } as const;

export function offsetOf(req: PageRequest): number {
  return (req.page - 1) * req.perPage;
}
