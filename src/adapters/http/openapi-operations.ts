import { OPERATION_DOCS } from './openapi-examples/index.ts';
import { operationPolicy } from './openapi-policy.ts';
import { OPENAPI_TAGS } from './openapi-tags.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface MediaType {
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown;
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
  [extension: `x-${string}`]: unknown;
}

/**
 * Adds to each operation of the generated document what its schemas cannot say: its id, summary,
 * tag and examples (openapi-examples/, by method and path, so the routes stay small) and its
 * security from the route policy (openapi-policy.ts). docs/design/openapi.md.
 */
export function documentOperations<T extends { paths?: object | undefined }>(doc: T): T & { tags: unknown } {
  for (const [path, item] of Object.entries(doc.paths ?? {}) as [string, Record<string, Operation>][]) {
    for (const method of METHODS) {
      // PUT and PATCH of one route share their objects: each is given its own copy first.
      if (item[method]) item[method] = describe(structuredClone(item[method]), method.toUpperCase(), path);
    }
  }
  return { ...doc, tags: OPENAPI_TAGS.map((tag) => ({ ...tag })) };
}

function describe(op: Operation, method: string, path: string): Operation {
  Object.assign(op, operationPolicy(method, path));
  const doc = OPERATION_DOCS.get(`${method} ${path}`);
  // An operation without an entry keeps the route's wording; the operations test names it.
  if (!doc) return op;
  if (op.summary && op.summary !== doc.summary && !op.description) op.description = op.summary;
  op.operationId = doc.operationId;
  op.summary = doc.summary;
  op.tags = [doc.tag];
  if (doc.request !== undefined)
    for (const media of Object.values(op.requestBody?.content ?? {})) media.example = doc.request;
  const success = Object.keys(op.responses ?? {})
    .filter((status) => /^2\d\d$/.test(status))
    .sort()[0];
  const content = success === undefined ? undefined : op.responses?.[success]?.content;
  const type = content && ('application/json' in content ? 'application/json' : Object.keys(content)[0]);
  const media = content && type !== undefined ? content[type] : undefined;
  if (media && doc.otherResponses) media.examples = { default: { value: doc.response }, ...doc.otherResponses };
  else if (media) media.example = doc.response;
  return op;
}
