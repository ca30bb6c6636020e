import type { FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../../../../core/shared/errors.ts';
import { epochMsToZonedDate } from '../../../../core/expiration/ends-at.ts';
import { addDays } from '../../../../core/stats/range.ts';
import { isWorkspaceStatsName } from '../../../../core/analytics/workspace-stats.ts';
import type { Actor } from '../../../../core/workspaces/workspace.ts';
import { workspaceStatsCsv, workspaceStatsCsvFilename } from '../../../shared/presenters/workspace-stats.ts';
import { appLayout } from '../../ui/layout.ts';
import { sendView } from '../../app/respond.ts';
import { viewOf, viewerOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import {
  ANALYTICS_PATH,
  ANALYTICS_PRESETS,
  ANALYTICS_TABLES,
  analyticsMain,
  type AnalyticsData,
  type AnalyticsPreset,
} from './analytics-view.ts';

interface RangeAsked {
  from?: string | undefined;
  to?: string | undefined;
}

/** The session's person in the workspace they are looking at (the service checks stats.read there). */
function sessionActor(request: FastifyRequest): Actor {
  const id = viewerOf(request).account.id;
  return { userId: id, keyId: null, scopes: null, home: { workspaceId: id, role: 'owner' }, via: 'web' };
}

/** from/to as typed, or a preset's days up to today; a repeated or odd parameter is as if absent. */
function rangeAsked(request: FastifyRequest, timeZone: string, now: number): RangeAsked {
  const raw = (request.query ?? {}) as Record<string, unknown>;
  const text = (name: string) => (typeof raw[name] === 'string' ? raw[name].slice(0, 20) : undefined);
  const preset = text('range');
  if (preset !== undefined && preset in ANALYTICS_PRESETS) {
    const to = epochMsToZonedDate(now, timeZone);
    return { from: addDays(to, -(ANALYTICS_PRESETS[preset as AnalyticsPreset] - 1)), to };
  }
  return { from: text('from') || undefined, to: text('to') || undefined };
}

/** GET /dashboard/analytics (the workspace's numbers across its links) and each table's CSV. */
export const analyticsPages: WebFeature = (web, ctx: WebContext) => {
  const secret = ctx.web.csrfSecret;

  const read = async (request: FastifyRequest, asked: RangeAsked): Promise<AnalyticsData> => {
    const workspace = viewerOf(request).workspace;
    const actor = sessionActor(request);
    // Top entries only: the CSV has every one.
    const { days, tables } = await ctx.workspaceStats.overview(actor, workspace.id, asked, ANALYTICS_TABLES, 10);
    const today = epochMsToZonedDate(ctx.clock.now(), days.timeZone);
    return {
      range: days.range,
      timeZone: days.timeZone,
      live: days.range.to === today,
      total: days.clicks,
      days: days.items,
      tables,
    };
  };

  web.get(ANALYTICS_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
    const view = viewOf(request, reply, secret);
    const timeZone = viewerOf(request).workspace.timezone;
    const asked = rangeAsked(request, timeZone, ctx.clock.now());
    const page = (status: number, main: ReturnType<typeof analyticsMain>) =>
      sendView(reply, status, appLayout(view, { title: view.t.analytics.title, section: '/dashboard', main }));
    try {
      return page(200, analyticsMain(view, await read(request, asked)));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      // The period the form asked for is wrong: the last 30 days shown, the form as typed, the fields named.
      const fallback = await read(request, {});
      return page(422, analyticsMain(view, fallback, error.fields, asked));
    }
  });

  web.get(`${ANALYTICS_PATH}/export/:name`, async (request: FastifyRequest, reply: FastifyReply) => {
    const { name } = request.params as { name: string };
    if (!isWorkspaceStatsName(name)) return reply.callNotFound();
    const workspace = viewerOf(request).workspace;
    const asked = rangeAsked(request, workspace.timezone, ctx.clock.now());
    const result = await ctx.workspaceStats.query(sessionActor(request), workspace.id, { name, ...asked, page: null });
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${workspaceStatsCsvFilename(workspace.id, result)}"`)
      .header('cache-control', 'no-store')
      .send(workspaceStatsCsv(result));
  });
};
