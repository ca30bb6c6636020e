// The shapes the SDK takes and answers, named, all read from the generated document types
// (openapi.ts): a change to a route's schema reaches them through `npm run sdk`.
import type { paths } from './openapi.js';

type Json<Answer> = Answer extends { content: { 'application/json': infer Body } } ? Body : never;
type Answered<Operation, Status extends number> = Operation extends { responses: Record<Status, infer Answer> }
  ? Json<Answer>
  : never;
type Query<Operation> = Operation extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type JsonBody<Operation> = Operation extends { requestBody?: { content: { 'application/json': infer Body } } }
  ? Body
  : never;
/** An answer without its envelope's `status` (each of a union's members). */
type Unwrapped<Body> = Body extends unknown ? Omit<Body, 'status'> : never;

type LinkOperations = paths['/api/v1/links/{id}'];

/** A link record (docs/api.md §3). */
export type Link = Answered<LinkOperations['get'], 200>['data'];
/** What a create takes (docs/api.md §4): `url` and any other field. */
export type LinkInput = JsonBody<paths['/api/v1/links']['post']>;
/** What an update takes: the fields to change. */
export type LinkChanges = JsonBody<LinkOperations['put']>;
/** The filters, order and page of a links list (docs/api.md §5). */
export type LinkQuery = Query<paths['/api/v1/links']['get']>;
/** One page of links: `data`, and `meta` with the page numbers and the total. */
export type LinkPage = Unwrapped<Answered<paths['/api/v1/links']['get'], 200>>;
/** Something odd but allowed in what was saved (an unreachable rule, say): the field's path and why. */
export type LinkWarning = NonNullable<Answered<paths['/api/v1/links']['post'], 201>['warnings']>[number];
/**
 * The link a create or update saved, and `warnings` about it (empty when the API sent none). The
 * warnings are not enumerable: the object spreads and serialises as the link record alone.
 */
export type SavedLink = Link & { readonly warnings: LinkWarning[] };
/** What a delete answers: `{id, object: "link", deleted: true}`. */
export type Deleted = Unwrapped<Answered<LinkOperations['delete'], 200>>;

type StatsOperation = paths['/api/v1/stats/{id}']['get'];
/** Which statistics and their range (docs/api.md §8); the CSV form is the API's own. */
export type StatsQuery = Omit<Query<StatsOperation>, 'format'>;
/** A table of statistics with its page and range summary, or (name `conversions`) results per rule and variant. */
export type Stats = Unwrapped<Answered<StatsOperation, 200>>;
/** A table of statistics: `data` as `{value, count}`, `meta` its page, `stats` the range's totals. */
export type StatsTable = Extract<Stats, { stats: unknown }>;
/** `name: 'conversions'`: clicks and conversions per rule and split variant. */
export type ConversionResults = Exclude<Stats, { stats: unknown }>;

type ExplainOperation = paths['/api/v1/links/{id}/explain']['get'];
/** A described visitor: every field optional (docs/api.md §18, Explain). */
export type Visitor = Query<ExplainOperation>;
/** Where that visitor would go, and the trace of the rules that decided it. */
export type Explanation = Answered<ExplainOperation, 200>['data'];

/** The QR code's format, size, error correction, style and logo (docs/api.md §6). */
export type QrOptions = Query<paths['/api/v1/links/{id}/qr']['get']>;

type ConversionOperation = paths['/api/v1/conversions']['post'];
/** A conversion to record: `click_id` (the visit's `lpx_cid`), `name`, and optionally `value` and `currency`. */
export type ConversionInput = JsonBody<ConversionOperation>;
/** A recorded conversion (the first one, when the click already converted under that name). */
export type Conversion = Answered<ConversionOperation, 201>['data'];

type DomainsOperation = paths['/api/v1/domains']['get'];
/** A custom domain: its host `name`, `status` (pending or verified) and the rest of docs/api.md §6. */
export type Domain = Answered<DomainsOperation, 200>['data'][number];
/** The search, order and page of a domains list. */
export type DomainQuery = Query<DomainsOperation>;
/** One page of domains: `data`, `links` and `meta`. */
export type DomainPage = Unwrapped<Answered<DomainsOperation, 200>>;

/** The account the key belongs to. */
export type Account = Answered<paths['/api/v1/account']['get'], 200>['data'];
