import type { FastifyReply, RouteOptions } from 'fastify';
import { Type } from '@sinclair/typebox';
import { IdParams, ListEnvelope, SavedEnvelope, errorResponses } from '../shared/schemas/common.ts';
import { LinkRecord } from '../shared/schemas/link.ts';
import { linkRecord } from '../shared/presenters/link-record.ts';
import { linkVersionRecord } from '../shared/presenters/link-version-record.ts';
import { ruleWarnings } from '../../core/rules/rule-warnings.ts';
import { HistoryQuery, LinkVersionRecord, VersionParams } from './schemas/history.ts';
import { list, saved } from './envelopes.ts';
import { apiActor } from './audit-actor.ts';
import { pathOf, rawQueryOf, type ApiContext } from './handlers/context.ts';
import { base, bind, consumes, tag, type Request } from './link-route-parts.ts';

async function listHistory(
  request: Request<{ Params: IdParams; Querystring: HistoryQuery }>,
  _reply: FastifyReply,
  ctx: ApiContext,
) {
  const { page, per_page } = request.query;
  const found = await ctx.linkHistory.list(request.account.id, request.params.id, { page, perPage: per_page });
  return list(found, linkVersionRecord, ctx.urls.appUrl, pathOf(request), rawQueryOf(request));
}

async function restoreVersion(request: Request<{ Params: VersionParams }>, _reply: FastifyReply, ctx: ApiContext) {
  const { id, version } = request.params;
  const view = await ctx.linkHistory.restore(request.account.id, id, version, apiActor(request));
  return saved(linkRecord(view, ctx.urls), 200, ruleWarnings(view.link.rules));
}

/** A link's history and its restore (docs/api.md §3, docs/design/history.md), part of the table in routes.ts. */
export function historyRoutes(ctx: ApiContext): RouteOptions[] {
  return [
    {
      method: 'GET',
      url: `${base}/history`,
      handler: bind(ctx, listHistory),
      schema: {
        ...tag,
        summary: 'Every change of the link for its whole life, newest first (whoever may read the link)',
        params: IdParams,
        querystring: HistoryQuery,
        response: { 200: ListEnvelope(LinkVersionRecord), ...errorResponses },
      },
    },
    {
      method: 'POST',
      url: `${base}/history/:version/restore`,
      handler: bind(ctx, restoreVersion),
      schema: {
        ...tag,
        summary: 'Puts the link back as it stood right after that version, as a new version',
        consumes,
        params: VersionParams,
        body: Type.Object({}, { description: 'No fields' }),
        response: { 200: SavedEnvelope(LinkRecord, 200), ...errorResponses },
      },
    },
  ];
}
