import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { NotFoundError, ValidationError, type FieldErrors } from '../../../../core/shared/errors.ts';
import type { LinkInput } from '../../../../core/links/link-input.ts';
import { LinkBody } from '../../../shared/schemas/link.ts';
import { refuseInvalidBody } from '../../../shared/input/refuse-invalid-body.ts';
import { shortUrl } from '../../../shared/presenters/link-record.ts';
import { appLayout } from '../../ui/layout.ts';
import { domainChoices } from '../../ui/owned-choices.ts';
import { keepPostedForm, type PostedForm } from '../../ui/posted-form.ts';
import { formRoute } from '../../app/form-route.ts';
import { seeOther, sendView } from '../../app/respond.ts';
import { setFlash, viewOf, viewerOf, type View } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import { dashboardLink, dashboardMain, type DashboardData } from './dashboard-view.ts';
import { stepsFor } from './first-steps-view.ts';
import { webActor } from '../../app/audit-actor.ts';

/** The quick-shorten form: three of the API's link fields, under the API's rules; any other field is dropped. */
const QuickShortenBody = Type.Pick(LinkBody, ['url', 'alias', 'domain'], { additionalProperties: false });

const LISTED = 5;

async function dashboardData(
  ctx: WebContext,
  view: View,
  account: { id: number; timezone: string; personal: boolean },
  userId: number,
): Promise<DashboardData> {
  const all = { by: 'title', status: 0 } as const;
  const [domains, latest, top, clicks, broken, checklist] = await Promise.all([
    domainChoices(ctx, account.id, view.t.dashboard.defaultDomain),
    // The one count the page shows (the links in all) comes with the latest.
    ctx.links.list(account.id, { ...all, sort: 'desc' }, { page: 1, perPage: LISTED }),
    ctx.links.first(account.id, { ...all, sort: 'max' }, LISTED),
    ctx.stats.accountClicks(account),
    // The list's own query (the API's ?health=broken), so the count is what the filtered list shows.
    ctx.links.list(account.id, { ...all, sort: 'desc', health: 'broken' }, { page: 1, perPage: 1 }),
    // Its steps are a maker's (links, domains, keys, people): not shown to a viewer.
    view.can('links.write') ? ctx.firstSteps.checklist(account.id, userId, stepsFor(view, account.personal)) : null,
  ]);
  const listed = (items: typeof top) => items.map((v) => dashboardLink(v, shortUrl(v, ctx.urls)));
  return {
    domains,
    totalLinks: latest.total,
    brokenLinks: broken.total,
    clicks,
    latest: listed(latest.items),
    // Links nobody has clicked are not "most clicked".
    top: listed(top.filter((v) => v.link.clicks > 0)),
    firstSteps: checklist && {
      checklist,
      latestShortUrl: latest.items[0] ? shortUrl(latest.items[0], ctx.urls) : null,
      clicks: clicks.total,
      workspace: { id: account.id, personal: account.personal },
    },
  };
}

/** "Dismiss" on the checklist: gone for this person in this workspace (the form's CSRF checked by the scope). */
async function dismissFirstSteps(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const viewer = viewerOf(request);
  await ctx.firstSteps.dismiss(viewer.workspace.id, viewer.account.id);
  setFlash(reply, viewOf(request, reply, ctx.web.csrfSecret).t.dashboard.firstSteps.dismissed);
  return seeOther(reply, '/dashboard');
}

/** The link a quick shorten just made (`?created=`), when it is this workspace's; else none. */
async function madeLink(request: FastifyRequest, ctx: WebContext, workspaceId: number): Promise<string | null> {
  const raw = (request.query as Record<string, unknown> | undefined)?.created;
  const id = typeof raw === 'string' && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
  if (id === null || id >= 2 ** 31) return null;
  try {
    return shortUrl(await ctx.links.get(workspaceId, id), ctx.urls);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/** GET /dashboard and its quick-shorten form (POST /dashboard/shorten). */
export const dashboardPages: WebFeature = (web, ctx: WebContext) => {
  const secret = ctx.web.csrfSecret;

  const render = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    values?: PostedForm,
    errors?: FieldErrors,
  ) => {
    const view = viewOf(request, reply, secret);
    const viewer = viewerOf(request);
    const [data, made] = await Promise.all([
      dashboardData(ctx, view, viewer.workspace, viewer.account.id),
      madeLink(request, ctx, viewer.workspace.id),
    ]);
    return sendView(
      reply,
      status,
      appLayout(view, {
        title: view.t.dashboard.title,
        section: '/dashboard',
        main: dashboardMain(view, data, values, errors, made),
      }),
    );
  };

  web.get('/dashboard', async (request, reply) => render(request, reply, 200));
  web.post('/dashboard/first-steps/dismiss', (request, reply) => dismissFirstSteps(request, reply, ctx));

  const shorten = formRoute(keepPostedForm, async (request, reply, typed: PostedForm) => {
    const { workspace: account } = viewerOf(request);
    try {
      await refuseInvalidBody<LinkInput>(request, (rest) => ctx.links.faultsOf(account.id, account.timezone, rest));
      const created = await ctx.links.create(
        account.id,
        account.timezone,
        request.body as LinkInput,
        webActor(request),
      );
      setFlash(reply, viewOf(request, reply, secret).t.dashboard.created(shortUrl(created, ctx.urls)));
      // Back to the form with the new link beside it (and the focus there), not to the page's top.
      return seeOther(reply, `/dashboard?created=${created.link.id}#quick-made`);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return render(request, reply, 422, typed, error.fields);
    }
  });
  web.post(
    '/dashboard/shorten',
    { attachValidation: true, schema: { body: QuickShortenBody }, preValidation: shorten.preValidation },
    shorten.handler,
  );
};
