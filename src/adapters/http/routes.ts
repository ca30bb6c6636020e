import type {} from '@fastify/swagger'; // adds tags, summary and security to route schemas
import type { RouteOptions } from 'fastify';
import { Type, type TSchema } from '@sinclair/typebox';
import {
  DeletedEnvelope,
  IdParams,
  ListEnvelope,
  OneEnvelope,
  SavedEnvelope,
  errorResponses,
} from '../shared/schemas/common.ts';
import { LinkBody, LinkListQuery, LinkRecord } from '../shared/schemas/link.ts';
import { PixelBody, PixelListQuery, PixelRecord } from '../shared/schemas/pixel.ts';
import { SpaceBody, SpaceListQuery, SpaceRecord } from '../shared/schemas/space.ts';
import { DomainBody, DomainListQuery, DomainRecord, DomainVerifyBody } from '../shared/schemas/domain.ts';
import { AccountRecord } from './schemas/account.ts';
import { linkHandlers } from './handlers/links.ts';
import { crudHandlers } from './handlers/crud.ts';
import { accountHandlers } from './handlers/account.ts';
import { qrHandler } from './handlers/qr.ts';
import { domainVerifyHandler } from './handlers/domain-verify.ts';
import { QrQuery } from '../qr/qr-query.ts';
import { statsHandler } from './handlers/stats.ts';
import { StatsEnvelope, StatsQuery } from './schemas/stats.ts';
import { domainRecord, pixelRecord, spaceRecord } from '../shared/presenters/records.ts';
import type { ApiContext } from './handlers/context.ts';
import type { SpaceListQuery as SpaceQ } from '../shared/schemas/space.ts';
import type { DomainListQuery as DomainQ } from '../shared/schemas/domain.ts';
import type { PixelListQuery as PixelQ } from '../shared/schemas/pixel.ts';
import { linkBulkRoutes } from './bulk-routes.ts';
import { webhookRoutes } from './webhook-routes.ts';
import { tagRoutes } from './tag-routes.ts';
import { utmTemplateRoutes } from './utm-template-routes.ts';
import { ruleRoutes } from './rule-routes.ts';
import { historyRoutes } from './history-routes.ts';
import { scheduleRoutes } from './schedule-routes.ts';
import { conversionRoutes } from './conversion-routes.ts';
import { ConversionsEnvelope } from './schemas/conversions.ts';
import { conversionHandlers } from './handlers/conversions.ts';
import { workspaceRoutes } from './workspace-routes.ts';
import { auditRoutes } from './audit-routes.ts';
import { workspaceStatsRoutes } from './workspace-stats-routes.ts';
import { integrationRoutes } from './integration-routes.ts';

type Handler = RouteOptions['handler'];
interface Resource {
  /** Path segment under /api/v1 and before /destroy. */
  plural: string;
  tag: string;
  object: string;
  record: TSchema;
  body: TSchema;
  query: TSchema;
  handlers: { list: unknown; read: unknown; create: unknown; update: unknown; remove: unknown };
  /** Writes may answer `warnings` beside `data` (links: their rules). */
  warnings?: boolean;
}

const security = [{ bearerAuth: [] }];
/** Writes take the seed's form encoding and JSON alike (documentation only; the parsers decide). */
const consumes = ['application/x-www-form-urlencoded', 'application/json'];

/** The five operations of one resource, at the seed's paths and phpShort's real ones. */
function resourceRoutes(r: Resource): RouteOptions[] {
  const h = r.handlers as Record<keyof Resource['handlers'], Handler>;
  const base = `/api/v1/${r.plural}`;
  const common = { tags: [r.tag], security };
  const remove = {
    handler: h.remove,
    schema: { ...common, params: IdParams, response: { 200: DeletedEnvelope(r.object), ...errorResponses } },
  };
  return [
    {
      method: 'GET',
      url: base,
      handler: h.list,
      schema: {
        ...common,
        summary: `List ${r.plural}`,
        querystring: r.query,
        response: { 200: ListEnvelope(r.record), ...errorResponses },
      },
    },
    {
      method: 'GET',
      url: `${base}/:id`,
      handler: h.read,
      schema: {
        ...common,
        summary: `Read a ${r.object}`,
        params: IdParams,
        response: { 200: OneEnvelope(r.record), ...errorResponses },
      },
    },
    {
      method: 'POST',
      url: base,
      handler: h.create,
      attachValidation: true,
      schema: {
        ...common,
        summary: `Create a ${r.object}`,
        consumes,
        body: r.body,
        response: { 201: r.warnings ? SavedEnvelope(r.record, 201) : OneEnvelope(r.record, 201), ...errorResponses },
      },
    },
    {
      method: ['PUT', 'PATCH'],
      url: `${base}/:id`,
      handler: h.update,
      attachValidation: true,
      schema: {
        ...common,
        summary: `Update a ${r.object}`,
        consumes,
        params: IdParams,
        body: r.body,
        response: { 200: r.warnings ? SavedEnvelope(r.record, 200) : OneEnvelope(r.record), ...errorResponses },
      },
    },
    { method: 'DELETE', url: `${base}/:id`, ...remove, schema: { ...remove.schema, summary: `Delete a ${r.object}` } },
    {
      method: 'DELETE',
      url: `/${r.plural}/:id/destroy`,
      ...remove,
      schema: { ...remove.schema, summary: `Delete a ${r.object} (seed path)` },
    },
  ];
}

/** Every authenticated route, in one table. bulkBodyLimit: the largest body of a bulk create. */
export function apiRoutes(ctx: ApiContext, bulkBodyLimit: number): RouteOptions[] {
  return [
    ...linkBulkRoutes(ctx, bulkBodyLimit),
    ...webhookRoutes(ctx),
    ...tagRoutes(ctx),
    ...utmTemplateRoutes(ctx),
    ...ruleRoutes(ctx),
    ...historyRoutes(ctx),
    ...scheduleRoutes(ctx),
    ...conversionRoutes(ctx),
    ...integrationRoutes(ctx),
    ...workspaceRoutes(ctx),
    ...auditRoutes(ctx),
    ...workspaceStatsRoutes(ctx),
    ...apiResources(ctx).flatMap(resourceRoutes),
    domainVerifyRoute(ctx),
    linkCheckRoute(ctx),
    linkQrRoute(ctx),
    linkStatsRoute(ctx),
    accountRoute(ctx),
  ];
}

/** The four resources with the five operations each: links, pixels, spaces, domains. */
function apiResources(ctx: ApiContext): Resource[] {
  const appUrl = ctx.urls.appUrl;
  return [
    {
      plural: 'links',
      tag: 'Links',
      object: 'link',
      record: LinkRecord,
      body: LinkBody,
      query: LinkListQuery,
      handlers: linkHandlers(ctx),
      warnings: true,
    },
    {
      plural: 'pixels',
      tag: 'Pixels',
      object: 'pixel',
      record: PixelRecord,
      body: PixelBody,
      query: PixelListQuery,
      handlers: crudHandlers({
        service: ctx.pixels,
        object: 'pixel',
        record: pixelRecord,
        appUrl,
        filterOf: (q: PixelQ) => ({ search: q.search, type: q.type, sort: q.sort }),
      }),
    },
    {
      plural: 'spaces',
      tag: 'Spaces',
      object: 'space',
      record: SpaceRecord,
      body: SpaceBody,
      query: SpaceListQuery,
      handlers: crudHandlers({
        service: ctx.spaces,
        object: 'space',
        record: spaceRecord,
        appUrl,
        filterOf: (q: SpaceQ) => ({ search: q.search, sort: q.sort }),
      }),
    },
    {
      plural: 'domains',
      tag: 'Domains',
      object: 'domain',
      record: DomainRecord,
      body: DomainBody,
      query: DomainListQuery,
      handlers: crudHandlers({
        service: ctx.domains,
        object: 'domain',
        record: domainRecord,
        appUrl,
        filterOf: (q: DomainQ) => ({ search: q.search, sort: q.sort }),
      }),
    },
  ];
}

function domainVerifyRoute(ctx: ApiContext): RouteOptions {
  return {
    method: 'POST',
    url: '/api/v1/domains/:id/verify',
    handler: domainVerifyHandler(ctx) as Handler,
    schema: {
      tags: ['Domains'],
      summary: "Look for the domain's token (DNS TXT or HTTP file) and, when found, make it serve",
      security,
      params: IdParams,
      consumes,
      body: DomainVerifyBody,
      response: { 200: OneEnvelope(DomainRecord), ...errorResponses },
    },
  };
}

/** POST /api/v1/links/{id}/check: the destination checked at once (links:write, editors and up; limited per key). */
function linkCheckRoute(ctx: ApiContext): RouteOptions {
  const links = linkHandlers(ctx);
  return {
    method: 'POST',
    url: '/api/v1/links/:id/check',
    handler: ((request: Parameters<typeof links.check>[0]) => links.check(request)) as Handler,
    schema: {
      tags: ['Links'],
      summary: "Check the link's destination now; answers the link with its health",
      security,
      params: IdParams,
      consumes,
      body: Type.Object({}, { description: 'No fields' }),
      response: { 200: OneEnvelope(LinkRecord), ...errorResponses },
    },
  };
}

function linkQrRoute(ctx: ApiContext): RouteOptions {
  return {
    method: 'GET',
    url: '/api/v1/links/:id/qr',
    handler: qrHandler(ctx) as Handler,
    schema: {
      tags: ['Links'],
      summary: "QR code of a link's short URL",
      security,
      params: IdParams,
      querystring: QrQuery,
      produces: ['image/svg+xml', 'image/png'],
      response: {
        200: {
          description: 'SVG (default) or PNG image',
          content: {
            'image/svg+xml': { schema: { type: 'string' } },
            'image/png': { schema: { type: 'string', format: 'binary' } },
          },
        },
        ...errorResponses,
      },
    },
  };
}

function linkStatsRoute(ctx: ApiContext): RouteOptions {
  return {
    method: 'GET',
    url: '/api/v1/stats/:id',
    handler: statsHandler(ctx, conversionHandlers(ctx).results) as Handler,
    schema: {
      tags: ['Statistics'],
      summary: 'Statistics of a link, per day, hour or dimension',
      security,
      params: IdParams,
      querystring: StatsQuery,
      produces: ['application/json', 'text/csv'],
      response: {
        200: {
          description:
            "The list envelope of {value, count} and the range's numbers; with format=csv, a CSV attachment; with name=conversions, the results per rule and variant (docs/api.md, Conversions)",
          content: {
            'application/json': { schema: Type.Union([StatsEnvelope, ConversionsEnvelope]) },
            'text/csv': { schema: { type: 'string' } },
          },
        },
        ...errorResponses,
      },
    },
  };
}

function accountRoute(ctx: ApiContext): RouteOptions {
  return {
    method: 'GET',
    url: '/api/v1/account',
    handler: accountHandlers(ctx).read,
    schema: {
      tags: ['Account'],
      summary: 'The account of the key',
      security,
      response: { 200: OneEnvelope(AccountRecord), ...errorResponses },
    },
  };
}
