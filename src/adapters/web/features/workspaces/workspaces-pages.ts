import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import {
  ForbiddenError,
  NotFoundError,
  TooManyAttemptsError,
  ValidationError,
} from '../../../../core/shared/errors.ts';
import { roleAllows } from '../../../../core/workspaces/policy.ts';
import { authorize } from '../../../../core/workspaces/workspace-access.ts';
import { html } from '../../../shared/html/html.ts';
import { appLayout } from '../../ui/layout.ts';
import { csrfField, errorSummary, textField } from '../../ui/components.ts';
import { safeNext, seeOther, sendView } from '../../app/respond.ts';
import { setFlash, viewOf, viewerOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import { chooseWorkspace } from '../../app/workspace-choice.ts';
import type { WebFeature } from '../feature.ts';
import { text, type Form } from '../account/account-views.ts';
import { actorOf } from './workspace-actor.ts';
import { workspaceListPage } from './workspace-list-view.ts';
import { lockedWorkspacePage, workspacePage, type WorkspacePageState } from './workspace-view.ts';

const ById = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });
type ById = Static<typeof ById>;
const ByMember = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  userId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
});
type ByMember = Static<typeof ByMember>;
const ByItem = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  itemId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
});
type ByItem = Static<typeof ByItem>;

/** A day as typed in a date field, as the start of that day in UTC; null when empty; undefined when not a date. */
function dayOf(value: string): number | null | undefined {
  if (value === '') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const at = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(at).toISOString().startsWith(value) ? at : undefined;
}

/** After a switch the page asked from may name another workspace's record: those go to the dashboard. */
function nextAfterSwitch(next: unknown): string {
  const path = safeNext(next);
  return /\/\d/.test(path) ? '/dashboard' : path;
}

type Errors = ValidationError['fields'];

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

/** A workspace's page: settings, people, invitations and keys, as far as this person's role goes. */
async function renderWorkspace(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  status: number,
  id: number,
  state: WorkspacePageState,
) {
  const service = ctx.workspaces;
  const actor = actorOf(request);
  const workspace = await service.read(actor, id);
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  // Two-factor required and not turned on: the workspace is seen and can be left, nothing more.
  if ((await service.standingOf(id, actor.userId))?.twoFactorMissing) {
    return sendView(
      reply,
      status,
      appLayout(view, {
        title: workspace.name,
        main: lockedWorkspacePage(view, workspace, actor.userId),
        section: '/account',
      }),
    );
  }
  const [members, invitations, keys] = await Promise.all([
    ctx.members.list(actor, id),
    roleAllows(workspace.role, 'invitations.manage') ? ctx.invitations.list(actor, id) : Promise.resolve(null),
    ctx.workspaceKeys.list(actor, id),
  ]);
  const data = { workspace, members, invitations, keys, personId: actor.userId };
  return sendView(
    reply,
    status,
    appLayout(view, { title: workspace.name, main: workspacePage(view, data, state), section: '/account' }),
  );
}

const formOf = (request: FastifyRequest) => (request.body ?? {}) as Form;
const messagesOf = (request: FastifyRequest, reply: FastifyReply, ctx: WebContext) =>
  viewOf(request, reply, ctx.web.csrfSecret).t.workspaces;

/** Runs a form's change; a ValidationError shows the page again with that form's values and errors. */
async function orAgain(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  id: number,
  form: 'settings' | 'members' | 'invite' | 'key',
  run: () => Promise<FastifyReply>,
) {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return renderWorkspace(request, reply, ctx, 422, id, { form, values: formOf(request), errors: error.fields });
  }
}

function done(reply: FastifyReply, message: string, to: string) {
  setFlash(reply, message);
  return seeOther(reply, to);
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
  return done(reply, messagesOf(request, reply, ctx).switched(chosen.name), nextAfterSwitch(form.next));
}

async function saveSettings(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { id } = request.params as ById;
  const form = formOf(request);
  return orAgain(request, reply, ctx, id, 'settings', async () => {
    await ctx.workspaces.update(actorOf(request), id, {
      name: text(form, 'name'),
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

async function changeRole(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { id, userId } = request.params as ByMember;
  return orAgain(request, reply, ctx, id, 'members', async () => {
    await ctx.members.setRole(actorOf(request), id, userId, text(formOf(request), 'role'));
    return done(reply, messagesOf(request, reply, ctx).people.changed, `/account/workspaces/${id}`);
  });
}

/** Removes a member; one's own id is leaving (back to the list). */
async function removeMember(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { id, userId } = request.params as ByMember;
  const self = userId === viewerOf(request).account.id;
  const workspace = self ? await ctx.workspaces.read(actorOf(request), id) : null;
  return orAgain(request, reply, ctx, id, 'members', async () => {
    await ctx.members.remove(actorOf(request), id, userId);
    const t = messagesOf(request, reply, ctx).people;
    return workspace
      ? done(reply, t.left(workspace.name), '/account/workspaces')
      : done(reply, t.removed, `/account/workspaces/${id}`);
  });
}

/** Answered with the page itself: the link never travels in a cookie or a URL. */
async function invite(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { id } = request.params as ById;
  const form = formOf(request);
  try {
    return await orAgain(request, reply, ctx, id, 'invite', async () => {
      const { invitation, token } = await ctx.invitations.invite(actorOf(request), id, {
        email: text(form, 'email'),
        role: text(form, 'role'),
      });
      return renderWorkspace(request, reply, ctx, 200, id, {
        made: 'invitation',
        email: invitation.email,
        link: `${ctx.urls.appUrl}/signup/invitation/${token}`,
      });
    });
  } catch (error) {
    // The invitation limits (INVITE_LIMIT_*): the form again, what was typed kept, the limit named on it.
    if (!(error instanceof TooManyAttemptsError)) throw error;
    reply.header('retry-after', String(error.retryAfterSeconds));
    const message = messagesOf(request, reply, ctx).invites.tooMany(error.retryAfterSeconds);
    return renderWorkspace(request, reply, ctx, 429, id, {
      form: 'invite',
      values: form,
      errors: { email: [message] },
    });
  }
}

async function revokeInvitation(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { id, itemId } = request.params as ByItem;
  await ctx.invitations.revoke(actorOf(request), id, itemId);
  return done(reply, messagesOf(request, reply, ctx).invites.revoked, `/account/workspaces/${id}`);
}

/** Answered with the page itself: the key never travels in a cookie or a URL. */
async function makeKey(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { id } = request.params as ById;
  const form = formOf(request);
  return orAgain(request, reply, ctx, id, 'key', async () => {
    const expiresAt = dayOf(text(form, 'expires_at'));
    if (expiresAt === undefined) throw ValidationError.of('expires_at', messagesOf(request, reply, ctx).keys.badDate);
    const scopes = [form.scopes ?? []].flat();
    const made = await ctx.workspaceKeys.create(actorOf(request), id, {
      name: text(form, 'name'),
      scopes: scopes.length === 0 ? null : scopes,
      expiresAt,
    });
    return renderWorkspace(request, reply, ctx, 200, id, {
      made: 'key',
      name: made.key.key.name ?? made.key.key.prefix,
      apiKey: made.apiKey,
    });
  });
}

async function revokeKey(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { id, itemId } = request.params as ByItem;
  await ctx.workspaceKeys.revoke(actorOf(request), id, itemId);
  return done(reply, messagesOf(request, reply, ctx).keys.revoked, `/account/workspaces/${id}`);
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
