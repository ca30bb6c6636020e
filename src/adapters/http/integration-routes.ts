import type {} from '@fastify/swagger'; // adds tags, summary and security to route schemas
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { Type } from '@sinclair/typebox';
import { DeletedEnvelope, IdParams, OneEnvelope, errorResponses } from '../shared/schemas/common.ts';
import { integrationRecord } from '../shared/presenters/integration-record.ts';
import { IntegrationBody, IntegrationRecord } from './schemas/integration.ts';
import { created, deleted } from './envelopes.ts';
import type { ApiContext } from './handlers/context.ts';
import { apiActor } from './audit-actor.ts';

type Handler = RouteOptions['handler'];
const common = { tags: ['Integrations'], security: [{ bearerAuth: [] }] };
const consumes = ['application/json', 'application/x-www-form-urlencoded'];

/** The workspace's Stripe and Shopify endpoints (docs/api.md, Integrations), part of the table in routes.ts. */
export function integrationRoutes(ctx: ApiContext): RouteOptions[] {
  const appUrl = ctx.urls.appUrl;
  const list = async (request: FastifyRequest) => {
    const found = await ctx.integrations.list(request.account.id);
    return { data: found.map((i) => integrationRecord(i, appUrl)), status: 200 as const };
  };
  const create = async (request: FastifyRequest, reply: FastifyReply) => {
    // The core names each bad field (type, secret): the schema's own findings are left to it.
    const body = typeof request.body === 'object' && request.body !== null ? request.body : {};
    const integration = await ctx.integrations.create(request.account.id, body, apiActor(request));
    return reply.code(201).send(created(integrationRecord(integration, appUrl)));
  };
  const remove = async (request: FastifyRequest<{ Params: IdParams }>) => {
    await ctx.integrations.remove(request.account.id, request.params.id, apiActor(request));
    return deleted('integration', request.params.id);
  };
  return [
    {
      method: 'GET',
      url: '/api/v1/integrations',
      handler: list,
      schema: {
        ...common,
        summary: "The workspace's Stripe and Shopify integrations",
        response: {
          200: Type.Object({ data: Type.Array(IntegrationRecord), status: Type.Literal(200) }),
          ...errorResponses,
        },
      },
    },
    {
      method: 'POST',
      url: '/api/v1/integrations',
      handler: create,
      attachValidation: true,
      schema: {
        ...common,
        summary: 'Create an integration: its endpoint_url is where Stripe or Shopify posts sales',
        consumes,
        body: IntegrationBody,
        response: { 201: OneEnvelope(IntegrationRecord, 201), ...errorResponses },
      },
    },
    {
      method: 'DELETE',
      url: '/api/v1/integrations/:id',
      handler: remove as Handler,
      schema: {
        ...common,
        summary: 'Remove an integration: its endpoint answers 404 from now on',
        params: IdParams,
        response: { 200: DeletedEnvelope('integration'), ...errorResponses },
      },
    },
  ];
}
