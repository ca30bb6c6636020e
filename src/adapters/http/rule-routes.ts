import type {} from '@fastify/swagger'; // adds tags, summary and security to route schemas
import type { RouteOptions } from 'fastify';
import { IdParams, OneEnvelope, errorResponses } from '../shared/schemas/common.ts';
import { ExplainQuery, ExplainRecord, PreviewBody, PreviewRecord } from './schemas/rules.ts';
import { ruleHandlers } from './handlers/rules.ts';
import type { ApiContext } from './handlers/context.ts';

type Handler = RouteOptions['handler'];
const common = { tags: ['Links'], security: [{ bearerAuth: [] }] };

/** A link's rules explained and previewed (docs/api.md §18), part of the table in routes.ts. */
export function ruleRoutes(ctx: ApiContext): RouteOptions[] {
  const h = ruleHandlers(ctx);
  return [
    {
      method: 'GET',
      url: '/api/v1/links/:id/explain',
      handler: h.explain as Handler,
      schema: {
        ...common,
        summary: 'Where a described visitor would go and why, by the redirect’s own decision; nothing is recorded',
        params: IdParams,
        querystring: ExplainQuery,
        response: { 200: OneEnvelope(ExplainRecord), ...errorResponses },
      },
    },
    {
      method: 'POST',
      url: '/api/v1/links/:id/rules/preview',
      handler: h.preview as Handler,
      schema: {
        ...common,
        summary: "Replays the link's stored clicks of the last days through draft rules and the current ones",
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        params: IdParams,
        body: PreviewBody,
        response: { 200: OneEnvelope(PreviewRecord), ...errorResponses },
      },
    },
  ];
}
