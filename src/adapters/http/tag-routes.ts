import type {} from '@fastify/swagger'; // adds tags, summary and security to route schemas
import type { RouteOptions } from 'fastify';
import { Type } from '@sinclair/typebox';
import { DeletedEnvelope, IdParams, OneEnvelope, errorResponses } from '../shared/schemas/common.ts';
import { TagBody, TagRecord } from './schemas/tag.ts';
import { tagHandlers } from './handlers/tags.ts';
import type { ApiContext } from './handlers/context.ts';

type Handler = RouteOptions['handler'];
const common = { tags: ['Tags'], security: [{ bearerAuth: [] }] };
const consumes = ['application/x-www-form-urlencoded', 'application/json'];

/** The tags' routes (docs/api.md, Tags), part of the table in routes.ts. A tag is created by naming it on a link. */
export function tagRoutes(ctx: ApiContext): RouteOptions[] {
  const h = tagHandlers(ctx);
  return [
    {
      method: 'GET',
      url: '/api/v1/tags',
      handler: h.list,
      schema: {
        ...common,
        summary: "The account's tags by name, each with its link count",
        response: { 200: Type.Object({ data: Type.Array(TagRecord), status: Type.Literal(200) }), ...errorResponses },
      },
    },
    {
      method: 'GET',
      url: '/api/v1/tags/:id',
      handler: h.read as Handler,
      schema: {
        ...common,
        summary: 'Read a tag',
        params: IdParams,
        response: { 200: OneEnvelope(TagRecord), ...errorResponses },
      },
    },
    {
      method: ['PUT', 'PATCH'],
      url: '/api/v1/tags/:id',
      handler: h.update as Handler,
      attachValidation: true,
      schema: {
        ...common,
        summary: 'Rename or recolour a tag',
        consumes,
        params: IdParams,
        body: TagBody,
        response: { 200: OneEnvelope(TagRecord), ...errorResponses },
      },
    },
    {
      method: 'DELETE',
      url: '/api/v1/tags/:id',
      handler: h.remove as Handler,
      schema: {
        ...common,
        summary: 'Delete a tag: its links lose it and stay',
        params: IdParams,
        response: { 200: DeletedEnvelope('tag'), ...errorResponses },
      },
    },
  ];
}
