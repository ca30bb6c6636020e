import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { ValidationError } from '../../../../core/shared/errors.ts';
import { roleAllows } from '../../../../core/workspaces/policy.ts';
import { appLayout } from '../../ui/layout.ts';
import { seeOther, sendView } from '../../app/respond.ts';
import { setFlash, viewOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { Form } from '../account/account-views.ts';
import { actorOf } from './workspace-actor.ts';
import { lockedWorkspacePage, workspacePage, type WorkspacePageState } from './workspace-view.ts';
import { workspaceName } from '../../ui/workspace-name.ts';

// What the workspace pages share: the route parameters, the workspace page and its re-shown forms.

export const ById = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });
export type ById = Static<typeof ById>;
export const ByMember = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  userId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
});
export type ByMember = Static<typeof ByMember>;
export const ByItem = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  itemId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
});
export type ByItem = Static<typeof ByItem>;

export type Errors = ValidationError['fields'];

/** A workspace's page: settings, people, invitations and keys, as far as this person's role goes. */
export async function renderWorkspace(
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
        title: workspaceName(view, workspace),
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
    appLayout(view, {
      title: workspaceName(view, workspace),
      main: workspacePage(view, data, state),
      section: '/account',
    }),
  );
}

export const formOf = (request: FastifyRequest) => (request.body ?? {}) as Form;
export const messagesOf = (request: FastifyRequest, reply: FastifyReply, ctx: WebContext) =>
  viewOf(request, reply, ctx.web.csrfSecret).t.workspaces;

/** Runs a form's change; a ValidationError shows the page again with that form's values and errors. */
export async function orAgain(
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

export function done(reply: FastifyReply, message: string, to: string) {
  setFlash(reply, message);
  return seeOther(reply, to);
}
