import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Integration } from '../../../../core/integrations/integration.ts';
import { ValidationError } from '../../../../core/shared/errors.ts';
import { appLayout } from '../../ui/layout.ts';
import { sendView } from '../../app/respond.ts';
import { viewOf } from '../../app/view.ts';
import { webActor } from '../../app/audit-actor.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import { text } from '../account/account-views.ts';
import { actorOf } from '../workspaces/workspace-actor.ts';
import { ById, ByItem, done, formOf } from '../workspaces/workspace-page-parts.ts';
import { integrationsPage, type IntegrationsPageInput } from './integrations-view.ts';

type Extra = Pick<IntegrationsPageInput, 'made' | 'values' | 'errors'>;

/** The page, after the workspaces service said this person may manage the workspace's integrations (admins and owners). */
async function render(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  status: number,
  id: number,
  extra: Extra,
) {
  await ctx.workspaces.require(actorOf(request), id, 'integrations.manage');
  const workspace = await ctx.workspaces.read(actorOf(request), id);
  const items = await ctx.integrations.list(id);
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  const main = integrationsPage(view, { workspace, appUrl: ctx.urls.appUrl, items, ...extra });
  return sendView(reply, status, appLayout(view, { title: view.t.integrations.title, main, section: '/account' }));
}

/** Answered with the page itself, the new endpoint first; a refused form comes back as it was typed. */
async function add(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { id } = request.params as ById;
  await ctx.workspaces.require(actorOf(request), id, 'integrations.manage');
  const form = formOf(request);
  const values = { type: text(form, 'type'), secret: text(form, 'secret') };
  let made: Integration;
  try {
    made = await ctx.integrations.create(id, values, webActor(request));
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return render(request, reply, ctx, 422, id, { values, errors: error.fields });
  }
  return render(request, reply, ctx, 201, id, { made });
}

async function remove(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { id, itemId } = request.params as ByItem;
  await ctx.workspaces.require(actorOf(request), id, 'integrations.manage');
  await ctx.integrations.remove(id, itemId, webActor(request));
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  return done(reply, view.t.integrations.removed, `/account/workspaces/${id}/integrations`);
}

/** /account/workspaces/{id}/integrations (docs/design/integrations.md): list, add, remove. */
export const integrationsPages: WebFeature = (web, ctx: WebContext) => {
  const base = '/account/workspaces/:id/integrations';
  web.get(base, { schema: { params: ById } }, (request, reply) =>
    render(request, reply, ctx, 200, (request.params as ById).id, {}),
  );
  web.post(base, { schema: { params: ById } }, (request, reply) => add(request, reply, ctx));
  web.post(`${base}/:itemId/remove`, { schema: { params: ByItem } }, (request, reply) => remove(request, reply, ctx));
};
