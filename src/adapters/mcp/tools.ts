import type { TObject, TSchema } from '@sinclair/typebox';
import { IdParams } from '../shared/schemas/common.ts';
import { LinkBody, LinkListQuery } from '../shared/schemas/link.ts';
import { StatsQuery } from '../http/schemas/stats.ts';
import { ExplainQuery } from '../http/schemas/rules.ts';
import { ConversionBody } from '../http/schemas/conversions.ts';

/** A tool's input as MCP lists it: a JSON Schema object (docs/design/mcp.md). */
export interface ToolInputSchema {
  type: 'object';
  properties: Record<string, TSchema>;
  required?: string[];
  [key: string]: unknown;
}

/** One MCP tool: the API route it calls and its input, made of that route's own validators. */
export interface Tool {
  name: string;
  description: string;
  method: 'GET' | 'POST' | 'PUT';
  /** The route's path with its parameters (`:id`), filled from the arguments of the same names. */
  path: string;
  inputSchema: ToolInputSchema;
}

/**
 * The tool's input: the path's parameters, then the body's or the query's fields. A field with a
 * default (a list's `sort`) is not required of a model, whatever the route's schema says: the
 * route fills it in. `required` adds what the route's handler requires beyond its schema.
 */
function input(parts: TObject[], required: string[] = []): ToolInputSchema {
  const properties: Record<string, TSchema> = {};
  const needed = new Set(required);
  for (const part of parts) {
    Object.assign(properties, part.properties);
    for (const name of part.required ?? []) if (part.properties[name]?.default === undefined) needed.add(name);
  }
  return { type: 'object', properties, ...(needed.size > 0 ? { required: [...needed] } : {}) };
}

/** Every tool, each the API route a person's key could call; the route checks the key as it always does. */
export const TOOLS: readonly Tool[] = [
  {
    name: 'create_link',
    description:
      'Create a short link to `url` (alias, domain, tags, targeting and expiry optional). Answers the link record, short_url included.',
    method: 'POST',
    path: '/api/v1/links',
    inputSchema: input([LinkBody], ['url']),
  },
  {
    name: 'update_link',
    description: 'Change fields of the link `id`; fields not given stay as they are. Answers the link record.',
    method: 'PUT',
    path: '/api/v1/links/:id',
    inputSchema: input([IdParams, LinkBody]),
  },
  {
    name: 'get_link',
    description: 'The link record of `id`: destination, short_url, clicks, targeting, health.',
    method: 'GET',
    path: '/api/v1/links/:id',
    inputSchema: input([IdParams]),
  },
  {
    name: 'list_links',
    description:
      'One page of the workspace’s links, newest first by default; search, filter by status, tag, space, domain. Answers records and the page’s meta (total, last_page).',
    method: 'GET',
    path: '/api/v1/links',
    inputSchema: input([LinkListQuery]),
  },
  {
    name: 'get_stats',
    description:
      'Statistics of the link `id` by `name` (clicks per day, clicks_hours, country, cities, browser, platform, device, language, referrer, conversions) over a range of days.',
    method: 'GET',
    path: '/api/v1/stats/:id',
    inputSchema: input([IdParams, StatsQuery]),
  },
  {
    name: 'explain_visit',
    description:
      'Where a described visitor (country, user agent, language, referrer, query, ip, time) would be sent by the link `id`, and why. Records nothing.',
    method: 'GET',
    path: '/api/v1/links/:id/explain',
    inputSchema: input([IdParams, ExplainQuery]),
  },
  {
    name: 'check_destination',
    description: 'Check the destination of the link `id` now; answers the link record with its health.',
    method: 'POST',
    path: '/api/v1/links/:id/check',
    inputSchema: input([IdParams]), // its body has no fields
  },
  {
    name: 'record_conversion',
    description:
      'Record a conversion (lead, sale, …) of the visit whose lpx_cid is `click_id`, with an optional value and currency; once per click and name.',
    method: 'POST',
    path: '/api/v1/conversions',
    inputSchema: input([ConversionBody]),
  },
];
