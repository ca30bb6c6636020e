import type {} from '@fastify/swagger'; // adds tags, summary and security to route schemas
import type { RouteOptions } from 'fastify';
import { DeletedEnvelope, IdParams, ListEnvelope, OneEnvelope, errorResponses } from '../shared/schemas/common.ts';
import { UtmTemplateBody, UtmTemplateListQuery, UtmTemplateRecord } from '../shared/schemas/utm-template.ts';
import { crudHandlers } from './handlers/crud.ts';
import { utmTemplateRecord } from './presenters/utm-template-record.ts';
import type { ApiContext } from './handlers/context.ts';

type Handler = RouteOptions['handler'];
const common = { tags: ['UTM templates'], security: [{ bearerAuth: [] }] };
const consumes = ['application/x-www-form-urlencoded', 'application/json'];
const base = '/api/v1/utm-templates';

/** The UTM templates' routes (docs/api.md, UTM templates), part of the table in routes.ts. */
export function utmTemplateRoutes(ctx: ApiContext): RouteOptions[] {
  const h = crudHandlers({
    service: ctx.utmTemplates,
    object: 'utm_template',
    record: utmTemplateRecord,
    appUrl: ctx.urls.appUrl,
    filterOf: (q: UtmTemplateListQuery) => ({ search: q.search, sort: q.sort }),
  }) as Record<'list' | 'read' | 'create' | 'update' | 'remove', Handler>;
  return [
    {
      method: 'GET',
      url: base,
      handler: h.list,
      schema: {
        ...common,
        summary: "The account's UTM templates",
        querystring: UtmTemplateListQuery,
        response: { 200: ListEnvelope(UtmTemplateRecord), ...errorResponses },
      },
    },
    {
      method: 'POST',
      url: base,
      handler: h.create,
      attachValidation: true,
      schema: {
        ...common,
        summary: 'Create a UTM template',
        consumes,
        body: UtmTemplateBody,
        response: { 201: OneEnvelope(UtmTemplateRecord, 201), ...errorResponses },
      },
    },
    {
      method: 'GET',
      url: `${base}/:id`,
      handler: h.read,
      schema: {
        ...common,
        summary: 'Read a UTM template',
        params: IdParams,
        response: { 200: OneEnvelope(UtmTemplateRecord), ...errorResponses },
      },
    },
    {
      method: 'PUT',
      url: `${base}/:id`,
      handler: h.update,
      attachValidation: true,
      schema: {
        ...common,
        summary: 'Update a UTM template; fields not sent are kept',
        consumes,
        params: IdParams,
        body: UtmTemplateBody,
        response: { 200: OneEnvelope(UtmTemplateRecord), ...errorResponses },
      },
    },
    {
      method: 'DELETE',
      url: `${base}/:id`,
      handler: h.remove,
      schema: {
        ...common,
        summary: 'Delete a UTM template',
        params: IdParams,
        response: { 200: DeletedEnvelope('utm_template'), ...errorResponses },
      },
    },
  ];
}
