import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError, NotFoundError, ValidationError } from '../../../../core/shared/errors.ts';
import { authorize } from '../../../../core/workspaces/workspace-access.ts';
import { html } from '../../../shared/html/html.ts';
import { appLayout } from '../../ui/layout.ts';
import { csrfField, errorSummary, textField } from '../../ui/components.ts';
import { safeNext, sendView } from '../../app/respond.ts';
import { viewOf, viewerOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import { chooseWorkspace } from '../../app/workspace-choice.ts';
import type { WebFeature } from '../feature.ts';
import { text } from '../account/account-views.ts';
import { actorOf } from './workspace-actor.ts';
import { workspaceListPage } from './workspace-list-view.ts';
import {
  ById,
  ByItem,
  ByMember,
  done,
  formOf,
  messagesOf,
  orAgain,
  renderWorkspace,
  type Errors,
} from './workspace-page-parts.ts';
import { changeRole, invite, makeKey, removeMember, revokeInvitation, revokeKey } from './workspace-people-pages.ts';
import { workspaceName } from '../../ui/workspace-name.ts';

/** After a switch the page asked from may name another workspace's record: those go to the dashboard. */
function nextAfterSwitch(next: unknown): string {
  const path = safeNext(next);
  return /\/\d/.test(path) ? '/dashboard' : path;
}

/** The workspaces list and its "new workspace" form. */
async function renderList(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  status: number,
  values: { name: string },
  errors?: Errors,
) {
  const service = ctx.workspaces;
  const actor = actorOf(request);
  const mine = await service.list(actor);
  // A workspace whose two-factor rule stops this person shows no count (its members are not theirs to read yet).
  const count = async (id: number): Promise<number | null> => {
    try {
      return (await ctx.members.list(actor, id)).length;
    } catch (error) {
      if (error instanceof ForbiddenError) return null;
      throw error;
    }
  };
  const listed = await Promise.all(mine.map(async (workspace) => ({ workspace, members: await count(workspace.id) })));
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  return sendView(
    reply,
    status,
    appLayout(view, {
      title: view.t.workspaces.title,
      main: workspaceListPage(view, listed, values, errors),
      section: '/account',
    }),
  );
}

async function createWorkspace(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const name = text(formOf(request), 'name');
  try {
    const made = await ctx.workspaces.create(actorOf(request), viewerOf(request).account.id, { name });
    chooseWorkspace(request, reply, ctx.web.csrfSecret, viewerOf(request).token, made.id);
    return done(reply, messagesOf(request, reply, ctx).created(made.name), `/account/workspaces/${made.id}`);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return renderList(request, reply, ctx, 422, { name }, error.fields);
  }
}

async function switchWorkspace(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const form = formOf(request);
  const chosen = viewerOf(request).workspaces.find((w) => String(w.id) === text(form, 'workspace'));
  if (!chosen) throw new NotFoundError('workspace');
  chooseWorkspace(request, reply, ctx.web.csrfSecret, viewerOf(request).token, chosen.id);
  return done(
    reply,
    messagesOf(request, reply, ctx).switched(workspaceName(viewOf(request, reply, ctx.web.csrfSecret), chosen)),
    nextAfterSwitch(form.next),
  );
}

async function saveSettings(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { id } = request.params as ById;
  const form = formOf(request);
  return orAgain(request, reply, ctx, id, 'settings', async () => {
    await ctx.workspaces.update(actorOf(request), id, {
      // Absent (a personal workspace's form has no name): the stored name stays.
      name: form.name === undefined ? undefined : text(form, 'name'),
      timezone: text(form, 'timezone'),
      require_2fa: text(form, 'require_2fa') === '1',
    });
    return done(reply, messagesOf(request, reply, ctx).settings.saved, `/account/workspaces/${id}`);
  });
}

/** The delete page: the workspace's name to type, to confirm. */
async function renderDeletePage(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  status: number,
  id: number,
  typed: string,
  errors?: Errors,
) {
  const workspace = await ctx.workspaces.read(actorOf(request), id);
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  const d = view.t.workspaces.delete;
  const main = html`<h1>${d.title(workspace.name)}</h1>
<p><strong>${d.warning}</strong></p>
${errorSummary(view, errors)}
<form method="post" action="/account/workspaces/${id}/delete" class="stack" novalidate>
${csrfField(view)}
${textField({ name: 'confirm', label: d.confirm, value: typed, errors, required: true, autocomplete: 'off' })}
<div class="actions"><button type="submit" class="danger">${d.button}</button> <a href="/account/workspaces/${id}">${view.t.common.cancel}</a></div>
</form>`;
  return sendView(
    reply,
    status,
    appLayout(view, { title: d.title(workspace.name), main, narrow: true, section: '/account' }),
  );
}

async function showDelete(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { id } = request.params as ById;
  const workspace = await ctx.workspaces.read(actorOf(request), id);
  // Only an owner deletes (the policy's 403 naming the role), and a personal workspace has no such page.
  authorize({ role: workspace.role, scopes: null }, 'workspace.delete');
  if (workspace.personal) throw new NotFoundError('workspace');
  return renderDeletePage(request, reply, ctx, 200, id, '');
}

async function deleteWorkspace(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { id } = request.params as ById;
  const typed = text(formOf(request), 'confirm');
  const workspace = await ctx.workspaces.read(actorOf(request), id);
  const t = messagesOf(request, reply, ctx).delete;
  if (typed.trim() !== workspace.name)
    return renderDeletePage(request, reply, ctx, 422, id, typed, { confirm: [t.mismatch] });
  try {
    await ctx.workspaces.delete(actorOf(request), id);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return renderDeletePage(request, reply, ctx, 422, id, typed, { confirm: Object.values(error.fields).flat() });
  }
  return done(reply, t.done(workspace.name), '/account/workspaces');
}

/** /account/workspaces and each workspace's page: the workspaces service decides every action per workspace. */
export const workspacesPages: WebFeature = (web, ctx: WebContext) => {
  type Handle = (request: FastifyRequest, reply: FastifyReply, ctx: WebContext) => Promise<unknown>;
  const to = (handle: Handle) => (request: FastifyRequest, reply: FastifyReply) => handle(request, reply, ctx);
  const base = '/account/workspaces';
  const byId = () => ({ schema: { params: ById } });
  const byMember = () => ({ schema: { params: ByMember } });
  const byItem = () => ({ schema: { params: ByItem } });

  web.get(base, (request, reply) => renderList(request, reply, ctx, 200, { name: '' }));
  web.post(base, to(createWorkspace));
  web.post(`${base}/switch`, to(switchWorkspace));
  web.get(`${base}/:id`, byId(), (request, reply) =>
    renderWorkspace(request, reply, ctx, 200, (request.params as ById).id, null),
  );
  web.post(`${base}/:id/settings`, byId(), to(saveSettings));
  web.get(`${base}/:id/delete`, byId(), to(showDelete));
  web.post(`${base}/:id/delete`, byId(), to(deleteWorkspace));
  web.post(`${base}/:id/members/:userId/role`, byMember(), to(changeRole));
  web.post(`${base}/:id/members/:userId/remove`, byMember(), to(removeMember));
  web.post(`${base}/:id/invitations`, byId(), to(invite));
  web.post(`${base}/:id/invitations/:itemId/revoke`, byItem(), to(revokeInvitation));
  web.post(`${base}/:id/api-keys`, byId(), to(makeKey));
  web.post(`${base}/:id/api-keys/:itemId/revoke`, byItem(), to(revokeKey));
};
