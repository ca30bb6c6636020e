import type {} from '@fastify/swagger'; // adds tags, summary and security to route schemas
import type { RouteOptions } from 'fastify';
import { errorResponses, SavedEnvelope, OneEnvelope } from '../shared/schemas/common.ts';
import { ConversionBody, ConversionRecord, WinnerBody, WinnerParams } from './schemas/conversions.ts';
import { LinkRecord } from '../shared/schemas/link.ts';
import { conversionHandlers } from './handlers/conversions.ts';
import type { ApiContext } from './handlers/context.ts';

type Handler = RouteOptions['handler'];
const security = [{ bearerAuth: [] }];

/** Conversions (docs/api.md, Conversions): part of the table in routes.ts; results are a statistics name. */
export function conversionRoutes(ctx: ApiContext): RouteOptions[] {
  const h = conversionHandlers(ctx);
  return [
    {
      method: 'POST',
      url: '/api/v1/conversions',
      handler: h.record as Handler,
      // Its handler answers the schema's findings: value's message says what it takes.
      attachValidation: true,
      schema: {
        tags: ['Conversions'],
        summary: 'Records a conversion of a click once per name: 201 the first time, 200 with the first one after',
        security,
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        body: ConversionBody,
        response: { 200: OneEnvelope(ConversionRecord), 201: OneEnvelope(ConversionRecord, 201), ...errorResponses },
      },
    },
    {
      method: 'POST',
      url: '/api/v1/links/:id/rules/:index/winner',
      handler: h.winner as Handler,
      schema: {
        tags: ['Links'],
        summary: "Ends a split: the rule sends everyone to the chosen variant's URL",
        security,
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        params: WinnerParams,
        body: WinnerBody,
        response: { 200: SavedEnvelope(LinkRecord, 200), ...errorResponses },
      },
    },
  ];
}
