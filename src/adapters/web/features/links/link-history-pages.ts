import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { ValidationError, type FieldErrors } from '../../../../core/shared/errors.ts';
import { zonedDateTimeToEpochMs } from '../../../../core/expiration/ends-at.ts';
import type { LinkInput } from '../../../../core/links/link-input.ts';
import { Id, IdParams } from '../../../shared/schemas/common.ts';
import { shortUrl } from '../../../shared/presenters/link-record.ts';
import { appLayout } from '../../ui/layout.ts';
import { seeOther, sendView } from '../../app/respond.ts';
import { setFlash, viewOf, viewerOf } from '../../app/view.ts';
import { webActor } from '../../app/audit-actor.ts';
import type { WebFeature } from '../feature.ts';
import { refuseBadParams } from './link-params.ts';
import { historyPage, restorePage, schedulePage, type ScheduleForm } from './link-history-view.ts';

const VersionParams = Type.Object({ id: Id('Link id'), version: Id('Version') });
type VersionParams = Static<typeof VersionParams>;
const ScheduleParams = Type.Object({ id: Id('Link id'), sid: Id('Schedule id') });
type ScheduleParams = Static<typeof ScheduleParams>;
const PER_PAGE = 20;

const pageOf = (request: FastifyRequest): number => {
  const raw = (request.query as Record<string, unknown> | undefined)?.page;
  return typeof raw === 'string' && /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : 1;
};

const formOf = (body: unknown): ScheduleForm => {
  const out: ScheduleForm = {};
  const fields = (body ?? {}) as Record<string, unknown>;
  for (const name of ['at_date', 'at_time', 'url', 'state', 'expiration_date', 'expiration_time'] as const)
    if (typeof fields[name] === 'string') out[name] = fields[name].trim();
  return out;
};

/** The form's fields as an update's input: an empty field is left as it is when the change is applied. */
function changesOf(form: ScheduleForm): LinkInput {
  const changes: LinkInput = {};
  if (form.url) changes.url = form.url;
  if (form.state === 'enable') changes.disabled = 0;
  if (form.state === 'disable') changes.disabled = 1;
  if (form.expiration_date) changes.expiration_date = form.expiration_date;
  if (form.expiration_time) changes.expiration_time = form.expiration_time;
  return changes;
}

function atOf(form: ScheduleForm, zone: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(form.at_date ?? '') || !/^\d{2}:\d{2}$/.test(form.at_time ?? '')) return null;
  const at = zonedDateTimeToEpochMs(form.at_date!, form.at_time!, zone);
  return Number.isFinite(at) ? at : null;
}

/** The service's field names as the form's: `changes.disabled` is the state select, `at` its date. */
const FORM_FIELD: Record<string, string> = { at: 'at_date', changes: 'url', 'changes.disabled': 'state' };
function formErrors(fields: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [field, list] of Object.entries(fields))
    (out[FORM_FIELD[field] ?? field.replace(/^changes\./, '')] ??= []).push(...list);
  return out;
}

/** /links/{id}/history: the link's versions, newest first, each with Restore (a question first, then a POST). */
export const linkHistoryPages: WebFeature = (web, ctx) => {
  const secret = ctx.web.csrfSecret;

  web.get('/links/:id/history', { schema: { params: IdParams } }, async function historyScreen(request, reply) {
    refuseBadParams(request);
    const { workspace } = viewerOf(request);
    const id = (request.params as IdParams).id;
    const link = await ctx.links.get(workspace.id, id);
    const page = await ctx.linkHistory.list(workspace.id, id, { page: pageOf(request), perPage: PER_PAGE });
    const newest = page.page === 1 ? (page.items[0]?.version ?? null) : null;
    const v = viewOf(request, reply, secret);
    const url = shortUrl(link, ctx.urls);
    const main = historyPage(v, { id, url, page, newest });
    return sendView(reply, 200, appLayout(v, { title: v.t.history.pageTitle(url), section: '/links', main }));
  });

  const restoreScreen = async (request: FastifyRequest, reply: FastifyReply, status: number, errors?: FieldErrors) => {
    const { workspace } = viewerOf(request);
    const { id, version } = request.params as VersionParams;
    const wanted = await ctx.linkHistory.version(workspace.id, id, version);
    const v = viewOf(request, reply, secret);
    if (!wanted) return seeOther(reply, `/links/${id}/history`);
    const main = restorePage(v, { id, version: wanted, ...(errors ? { errors } : {}) });
    return sendView(reply, status, appLayout(v, { title: v.t.history.confirmTitle(version), section: '/links', main }));
  };

  web.get('/links/:id/history/:version/restore', { schema: { params: VersionParams } }, async (request, reply) =>
    restoreScreen(request, reply, 200),
  );

  web.post('/links/:id/history/:version/restore', { schema: { params: VersionParams } }, async (request, reply) => {
    const { workspace } = viewerOf(request);
    const { id, version } = request.params as VersionParams;
    try {
      await ctx.linkHistory.restore(workspace.id, id, version, webActor(request));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return restoreScreen(request, reply, 422, error.fields);
    }
    setFlash(reply, viewOf(request, reply, secret).t.history.restored(version));
    return seeOther(reply, `/links/${id}/history`);
  });
};

/** /links/{id}/schedule: a change for later, and the link's scheduled changes with Cancel. */
export const linkSchedulePages: WebFeature = (web, ctx) => {
  const secret = ctx.web.csrfSecret;

  const scheduleScreen = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    form?: { values: ScheduleForm; errors: FieldErrors },
  ) => {
    const { workspace } = viewerOf(request);
    const id = (request.params as IdParams).id;
    const link = await ctx.links.get(workspace.id, id);
    const list = await ctx.linkSchedules.list(workspace.id, id, { page: 1, perPage: 100 });
    const v = viewOf(request, reply, secret);
    const url = shortUrl(link, ctx.urls);
    const main = schedulePage(v, { id, url, zone: workspace.timezone, list, ...form });
    return sendView(
      reply,
      status,
      appLayout(v, { title: v.t.history.schedule.pageTitle(url), section: '/links', main }),
    );
  };

  web.get('/links/:id/schedule', { schema: { params: IdParams } }, async (request, reply) => {
    refuseBadParams(request);
    return scheduleScreen(request, reply, 200);
  });

  web.post('/links/:id/schedule', { schema: { params: IdParams } }, async function scheduleChange(request, reply) {
    const { workspace } = viewerOf(request);
    const id = (request.params as IdParams).id;
    const values = formOf(request.body);
    const at = atOf(values, workspace.timezone);
    try {
      await ctx.linkSchedules.create(
        workspace.id,
        workspace.timezone,
        id,
        { at, changes: changesOf(values) },
        webActor(request),
      );
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return scheduleScreen(request, reply, 422, { values, errors: formErrors(error.fields) });
    }
    setFlash(reply, viewOf(request, reply, secret).t.history.schedule.scheduled);
    return seeOther(reply, `/links/${id}/schedule`);
  });

  web.post('/links/:id/schedule/:sid/cancel', { schema: { params: ScheduleParams } }, async (request, reply) => {
    const { workspace } = viewerOf(request);
    const { id, sid } = request.params as ScheduleParams;
    try {
      await ctx.linkSchedules.cancel(workspace.id, id, sid);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return scheduleScreen(request, reply, 422, { values: {}, errors: error.fields });
    }
    setFlash(reply, viewOf(request, reply, secret).t.history.schedule.cancelled);
    return seeOther(reply, `/links/${id}/schedule`);
  });
};
