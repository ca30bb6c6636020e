import type { FastifyReply, RouteOptions } from 'fastify';
import { IdParams, ListEnvelope, OneEnvelope, errorResponses } from '../shared/schemas/common.ts';
import { linkScheduleRecord } from '../shared/presenters/link-schedule-record.ts';
import { HistoryQuery, ScheduleBody, ScheduleParams, ScheduleRecord } from './schemas/history.ts';
import { created, list, one } from './envelopes.ts';
import { apiActor } from './audit-actor.ts';
import { pathOf, rawQueryOf, type ApiContext } from './handlers/context.ts';
import { base, bind, consumes, tag, type Request } from './link-route-parts.ts';

/** An instant with its offset (2026-11-27T10:00:00Z), or null. */
function instantOf(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : at;
}

async function scheduleChange(
  request: Request<{ Params: IdParams; Body: ScheduleBody }>,
  reply: FastifyReply,
  ctx: ApiContext,
) {
  const { account, body, params } = request;
  const schedule = await ctx.linkSchedules.create(
    account.id,
    account.timezone,
    params.id,
    { at: instantOf(body.at), changes: body.changes },
    apiActor(request),
  );
  return reply.code(201).send(created(linkScheduleRecord(schedule)));
}

async function listSchedules(
  request: Request<{ Params: IdParams; Querystring: HistoryQuery }>,
  _reply: FastifyReply,
  ctx: ApiContext,
) {
  const { page, per_page } = request.query;
  const found = await ctx.linkSchedules.list(request.account.id, request.params.id, { page, perPage: per_page });
  return list(found, linkScheduleRecord, ctx.urls.appUrl, pathOf(request), rawQueryOf(request));
}

async function cancelSchedule(request: Request<{ Params: ScheduleParams }>, _reply: FastifyReply, ctx: ApiContext) {
  const { id, sid } = request.params;
  return one(linkScheduleRecord(await ctx.linkSchedules.cancel(request.account.id, id, sid)));
}

/** A link's scheduled changes (docs/api.md §3, docs/design/history.md), part of the table in routes.ts. */
export function scheduleRoutes(ctx: ApiContext): RouteOptions[] {
  return [
    {
      method: 'POST',
      url: `${base}/schedule`,
      handler: bind(ctx, scheduleChange),
      schema: {
        ...tag,
        summary: 'Schedules a change of the link, checked as an update now, applied within 60 s of `at`',
        consumes,
        params: IdParams,
        body: ScheduleBody,
        response: { 201: OneEnvelope(ScheduleRecord, 201), ...errorResponses },
      },
    },
    {
      method: 'GET',
      url: `${base}/schedule`,
      handler: bind(ctx, listSchedules),
      schema: {
        ...tag,
        summary: 'The link’s scheduled changes, the latest first, with their status',
        params: IdParams,
        querystring: HistoryQuery,
        response: { 200: ListEnvelope(ScheduleRecord), ...errorResponses },
      },
    },
    {
      method: 'DELETE',
      url: `${base}/schedule/:sid`,
      handler: bind(ctx, cancelSchedule),
      schema: {
        ...tag,
        summary: 'Cancels a pending scheduled change',
        params: ScheduleParams,
        response: { 200: OneEnvelope(ScheduleRecord), ...errorResponses },
      },
    },
  ];
}
