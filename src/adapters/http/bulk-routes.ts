import type {} from '@fastify/swagger'; // adds tags, summary and security to route schemas
import type { RouteOptions } from 'fastify';
import { IdParams, errorResponses } from '../shared/schemas/common.ts';
import { ClicksExportQuery } from './schemas/stats.ts';
import { clicksExportHandler } from './handlers/clicks-export.ts';
import {
  LinkBulkCountEnvelope,
  LinkBulkCreateBody,
  LinkBulkCreateEnvelope,
  LinkBulkDeleteBody,
  LinkBulkUpdateBody,
  LinkExportQuery,
} from './schemas/link-bulk.ts';
import { linkBulkHandlers, normalizeBulkBody } from './handlers/links-bulk.ts';
import { linkExportHandler } from './handlers/links-export.ts';
import type { ApiContext } from './handlers/context.ts';

type Handler = RouteOptions['handler'];
const security = [{ bearerAuth: [] }];
const common = { tags: ['Links'], security };
/** As every write: JSON, or a form with bracket lists (a form holds at most 300 links: docs/api.md §12). */
const consumes = ['application/x-www-form-urlencoded', 'application/json'];

/** The links' bulk routes and exports (api.md §8, §12, §13), part of the table in routes.ts. */
export function linkBulkRoutes(ctx: ApiContext, bulkBodyLimit: number): RouteOptions[] {
  return [...bulkWriteRoutes(ctx, bulkBodyLimit), ...exportRoutes(ctx)];
}

/** Create, change and delete links in bulk (api.md §12). */
function bulkWriteRoutes(ctx: ApiContext, bulkBodyLimit: number): RouteOptions[] {
  const bulk = linkBulkHandlers(ctx);
  return [
    {
      method: 'POST',
      url: '/api/v1/links/bulk',
      handler: bulk.create,
      bodyLimit: bulkBodyLimit,
      attachValidation: true,
      preValidation: normalizeBulkBody,
      schema: {
        ...common,
        summary: 'Create up to 1 000 links; each is created or refused on its own',
        consumes,
        body: LinkBulkCreateBody,
        response: { 200: LinkBulkCreateEnvelope, ...errorResponses },
      },
    },
    {
      method: 'PATCH',
      url: '/api/v1/links/bulk',
      handler: bulk.update as Handler,
      preValidation: normalizeBulkBody,
      schema: {
        ...common,
        summary: 'Move, enable, disable, set or clear the pixels of the links named by ids or by the filter',
        consumes,
        body: LinkBulkUpdateBody,
        response: { 200: LinkBulkCountEnvelope, ...errorResponses },
      },
    },
    {
      method: 'DELETE',
      url: '/api/v1/links/bulk',
      handler: bulk.remove as Handler,
      preValidation: normalizeBulkBody,
      schema: {
        ...common,
        summary: 'Delete the links named by ids or by the filter',
        consumes,
        body: LinkBulkDeleteBody,
        response: { 200: LinkBulkCountEnvelope, ...errorResponses },
      },
    },
  ];
}

/** The links and a link's click rows as files, streamed (api.md §8, §13). */
function exportRoutes(ctx: ApiContext): RouteOptions[] {
  return [
    {
      method: 'GET',
      url: '/api/v1/links/export',
      handler: linkExportHandler(ctx) as Handler,
      schema: {
        ...common,
        summary: 'Every matching link as a CSV or JSON file, streamed',
        querystring: LinkExportQuery,
        produces: ['text/csv', 'application/json'],
        response: {
          200: {
            description: 'The export, format 1 (docs/api.md §13)',
            content: { 'text/csv': { schema: { type: 'string' } }, 'application/json': { schema: { type: 'object' } } },
          },
          ...errorResponses,
        },
      },
    },
    {
      method: 'GET',
      url: '/api/v1/stats/:id/export',
      handler: clicksExportHandler(ctx) as Handler,
      schema: {
        tags: ['Statistics'],
        security,
        summary: "A link's click rows of a range, as a CSV file, streamed",
        params: IdParams,
        querystring: ClicksExportQuery,
        produces: ['text/csv'],
        response: {
          200: {
            description: 'CSV: id, at, country, city, browser, platform, device, language, referrer_host, bot',
            content: { 'text/csv': { schema: { type: 'string' } } },
          },
          ...errorResponses,
        },
      },
    },
  ];
}
