import type { Client } from 'openapi-fetch';
import type { paths } from './openapi.js';
import { ok, unwrapped, withWarnings } from './answer.js';
import type {
  Deleted,
  Explanation,
  Link,
  LinkChanges,
  LinkInput,
  LinkPage,
  LinkQuery,
  QrOptions,
  SavedLink,
  Stats,
  StatsQuery,
  Visitor,
} from './types.js';

/** The largest page the API serves: a list read whole takes as few requests as it can. */
const LARGEST_PAGE = 100;

/** `linkpix.links`: a workspace's links, their statistics, routes, checks and QR codes. */
export class Links {
  constructor(private readonly api: Client<paths, 'application/json'>) {}

  /**
   * Creates a link (201); a 422 is a LinkpixValidationError naming the fields. The link's
   * `warnings` say what is odd in it (a rule that can never match), saved all the same.
   */
  async create(input: LinkInput): Promise<SavedLink> {
    return withWarnings(await ok(this.api.POST('/api/v1/links', { body: input })));
  }

  async get(id: number): Promise<Link> {
    return (await ok(this.api.GET('/api/v1/links/{id}', { params: { path: { id } } }))).data;
  }

  /** Changes the fields given and leaves the others (docs/api.md §4); `warnings` as for a create. */
  async update(id: number, changes: LinkChanges): Promise<SavedLink> {
    return withWarnings(await ok(this.api.PUT('/api/v1/links/{id}', { params: { path: { id } }, body: changes })));
  }

  async delete(id: number): Promise<Deleted> {
    return unwrapped(await ok(this.api.DELETE('/api/v1/links/{id}', { params: { path: { id } } })));
  }

  /** One page of links (`page`, `per_page`, filters and order as the API takes them). */
  async page(query: LinkQuery = {}): Promise<LinkPage> {
    return unwrapped(await ok(this.api.GET('/api/v1/links', { params: { query } })));
  }

  /**
   * Every link the query matches, page after page from `query.page` (1) to the last, `per_page`
   * 100 unless given. Pages are read as they are iterated: links created or deleted meanwhile can
   * shift what later pages hold.
   */
  async *list(query: LinkQuery = {}): AsyncGenerator<Link, void, undefined> {
    let page = query.page ?? 1;
    for (;;) {
      const { data, meta } = await this.page({ per_page: LARGEST_PAGE, ...query, page });
      yield* data;
      if (meta.current_page >= meta.last_page) return;
      page = meta.current_page + 1;
    }
  }

  /** A statistics table (`name`: clicks, country, referrer…, or conversions) over `from`–`to`. */
  async stats(id: number, query: StatsQuery): Promise<Stats> {
    return unwrapped(await ok(this.api.GET('/api/v1/stats/{id}', { params: { path: { id }, query } })));
  }

  /** Where a described visitor would go and why; records nothing. */
  async explain(id: number, visitor: Visitor = {}): Promise<Explanation> {
    const path = '/api/v1/links/{id}/explain';
    return (await ok(this.api.GET(path, { params: { path: { id }, query: visitor } }))).data;
  }

  /** Checks the destination now and answers the link with its `health`. */
  async check(id: number): Promise<Link> {
    return (await ok(this.api.POST('/api/v1/links/{id}/check', { params: { path: { id } }, body: {} }))).data;
  }

  /** The QR code's bytes: an SVG document by default, a PNG with `format: 'png'`. */
  async qr(id: number, options: QrOptions = {}): Promise<Uint8Array> {
    const params = { path: { id }, query: options };
    const pending = this.api.GET('/api/v1/links/{id}/qr', { params, parseAs: 'arrayBuffer' });
    return new Uint8Array(await ok(pending));
  }
}
