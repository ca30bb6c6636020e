import type {} from '@fastify/swagger'; // adds tags, summary and security to route schemas
import type { RouteOptions } from 'fastify';
import { Type } from '@sinclair/typebox';
import { DeletedEnvelope, IdParams, OneEnvelope, errorResponses } from '../shared/schemas/common.ts';
import {
  CreatedWebhookRecord,
  WebhookBody,
  WebhookDelivery,
  WebhookPatchBody,
  WebhookRecord,
  WebhookSampleQuery,
} from './schemas/webhook.ts';
import { webhookHandlers } from './handlers/webhooks.ts';
import type { ApiContext } from './handlers/context.ts';

type Handler = RouteOptions['handler'];
const common = { tags: ['Webhooks'], security: [{ bearerAuth: [] }] };
const consumes = ['application/x-www-form-urlencoded', 'application/json'];

/** The webhooks' routes (docs/api.md, Webhooks), part of the table in routes.ts. */
export function webhookRoutes(ctx: ApiContext): RouteOptions[] {
  const h = webhookHandlers(ctx);
  return [
    {
      method: 'GET',
      url: '/api/v1/webhooks',
      handler: h.list,
      schema: {
        ...common,
        summary: "The account's webhooks",
        response: {
          200: Type.Object({ data: Type.Array(WebhookRecord), status: Type.Literal(200) }),
          ...errorResponses,
        },
      },
    },
    {
      method: 'POST',
      url: '/api/v1/webhooks',
      handler: h.create as Handler,
      schema: {
        ...common,
        summary: 'Create a webhook; its secret is shown in this answer only',
        consumes,
        body: WebhookBody,
        response: { 201: OneEnvelope(CreatedWebhookRecord, 201), ...errorResponses },
      },
    },
    {
      method: 'GET',
      url: '/api/v1/webhooks/sample',
      handler: h.sample as Handler,
      schema: {
        ...common,
        summary: "A sample delivery of the event, or of every event (for no-code tools' triggers)",
        querystring: WebhookSampleQuery,
        response: {
          200: OneEnvelope(Type.Union([WebhookDelivery, Type.Array(WebhookDelivery)])),
          ...errorResponses,
        },
      },
    },
    {
      method: 'GET',
      url: '/api/v1/webhooks/:id',
      handler: h.read as Handler,
      schema: {
        ...common,
        summary: 'Read a webhook',
        params: IdParams,
        response: { 200: OneEnvelope(WebhookRecord), ...errorResponses },
      },
    },
    {
      method: 'PATCH',
      url: '/api/v1/webhooks/:id',
      handler: h.update as Handler,
      schema: {
        ...common,
        summary: 'Change a webhook: its url, events, format, or whether it is enabled',
        consumes,
        params: IdParams,
        body: WebhookPatchBody,
        response: { 200: OneEnvelope(WebhookRecord), ...errorResponses },
      },
    },
    {
      method: 'DELETE',
      url: '/api/v1/webhooks/:id',
      handler: h.remove as Handler,
      schema: {
        ...common,
        summary: 'Delete a webhook and its pending deliveries',
        params: IdParams,
        response: { 200: DeletedEnvelope('webhook'), ...errorResponses },
      },
    },
  ];
}
