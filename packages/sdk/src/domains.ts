import type { Client } from 'openapi-fetch';
import type { paths } from './openapi.js';
import { ok, unwrapped } from './answer.js';
import type { Domain, DomainPage, DomainQuery } from './types.js';

/** The largest page the API serves. */
const LARGEST_PAGE = 100;

/** `linkpix.domains`: the workspace's custom domains (docs/api.md §6), read only. */
export class Domains {
  constructor(private readonly api: Client<paths, 'application/json'>) {}

  /** One page of domains (`search` in the host name, `sort`, `page`, `per_page`). */
  async page(query: DomainQuery = {}): Promise<DomainPage> {
    return unwrapped(await ok(this.api.GET('/api/v1/domains', { params: { query } })));
  }

  /** Every domain the query matches, page after page, as the caller iterates. */
  async *list(query: DomainQuery = {}): AsyncGenerator<Domain, void, undefined> {
    let page = query.page ?? 1;
    for (;;) {
      const { data, meta } = await this.page({ per_page: LARGEST_PAGE, ...query, page });
      yield* data;
      if (meta.current_page >= meta.last_page) return;
      page = meta.current_page + 1;
    }
  }
}
