import type { TagName } from '../openapi-tags.ts';

/** What the document says of one operation beyond its schemas (docs/design/openapi.md). */
export interface OperationDoc {
  /** camelCase, unique in the document: the name SDK generators give the call. */
  operationId: string;
  /** Imperative, at most 60 characters; the route's longer wording stays as its description. */
  summary: string;
  /** An example of the request body, where the operation takes one. */
  request?: unknown;
  /** An example of the lowest 2xx answer (its JSON, else its first media type). */
  response: unknown;
  /** Other answers of the same status, by name (a route with a union schema): `examples` beside `response`'s. */
  otherResponses?: Record<string, { summary: string; value: unknown }>;
}

/** One area of the API: its tag and its operations, keyed by `METHOD /path/{param}`. */
export interface AreaDocs {
  tag: TagName;
  operations: Record<string, OperationDoc>;
}
