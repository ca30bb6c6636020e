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

/** /account/workspaces and each workspace's page: the workspaces service decides every action per workspace. */
export const workspacesPages: WebFeature = (web, ctx: WebContext) => {
  const secret = ctx.web.csrfSecret;
  const service = ctx.workspaces;
  const { members: people, invitations: invites, workspaceKeys: keyring } = ctx;

  const showList = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    values: { name: string },
    errors?: ValidationError['fields'],
  ) => {
    const actor = actorOf(request);
    const mine = await service.list(actor);
    // A workspace whose two-factor rule stops this person shows no count (its members are not theirs to read yet).
    const count = async (id: number): Promise<number | null> => {
      try {
        return (await people.list(actor, id)).length;
      } catch (error) {
        if (error instanceof ForbiddenError) return null;
        throw error;
      }
    };
    const listed = await Promise.all(
      mine.map(async (workspace) => ({ workspace, members: await count(workspace.id) })),
    );
    const view = viewOf(request, reply, secret);
    return sendView(
      reply,
      status,
      appLayout(view, {
        title: view.t.workspaces.title,
        main: workspaceListPage(view, listed, values, errors),
        section: '/account',
      }),
    );
  };

  const showWorkspace = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    id: number,
    state: WorkspacePageState,
  ) => {
    const actor = actorOf(request);
    const workspace = await service.read(actor, id);
    const view = viewOf(request, reply, secret);
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
      people.list(actor, id),
      roleAllows(workspace.role, 'invitations.manage') ? invites.list(actor, id) : Promise.resolve(null),
      keyring.list(actor, id),
    ]);
    const data = { workspace, members, invitations, keys, personId: actor.userId };
    return sendView(
      reply,
      status,
      appLayout(view, { title: workspace.name, main: workspacePage(view, data, state), section: '/account' }),
    );
  };

  /** Runs a form's change; a ValidationError shows the page again with that form's values and errors. */
  const formOf = (request: FastifyRequest) => (request.body ?? {}) as Form;
  async function orAgain(
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    form: 'settings' | 'members' | 'invite' | 'key',
    run: () => Promise<FastifyReply>,
  ) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return showWorkspace(request, reply, 422, id, { form, values: formOf(request), errors: error.fields });
    }
  }
  const done = (reply: FastifyReply, message: string, to: string) => {
    setFlash(reply, message);
    return seeOther(reply, to);
  };

  web.get('/account/workspaces', async (request, reply) => showList(request, reply, 200, { name: '' }));

  web.post('/account/workspaces', async (request, reply) => {
    const name = text(formOf(request), 'name');
    try {
      const made = await service.create(actorOf(request), viewerOf(request).account.id, { name });
      chooseWorkspace(request, reply, secret, viewerOf(request).token, made.id);
      return done(
        reply,
        viewOf(request, reply, secret).t.workspaces.created(made.name),
        `/account/workspaces/${made.id}`,
      );
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return showList(request, reply, 422, { name }, error.fields);
    }
  });

  web.post('/account/workspaces/switch', async (request, reply) => {
    const form = formOf(request);
    const chosen = viewerOf(request).workspaces.find((w) => String(w.id) === text(form, 'workspace'));
    if (!chosen) throw new NotFoundError('workspace');
    chooseWorkspace(request, reply, secret, viewerOf(request).token, chosen.id);
    return done(reply, viewOf(request, reply, secret).t.workspaces.switched(chosen.name), nextAfterSwitch(form.next));
  });

  web.get('/account/workspaces/:id', { schema: { params: ById } }, async (request, reply) =>
    showWorkspace(request, reply, 200, (request.params as ById).id, null),
  );

  web.post('/account/workspaces/:id/settings', { schema: { params: ById } }, async (request, reply) => {
    const { id } = request.params as ById;
    const form = formOf(request);
    return orAgain(request, reply, id, 'settings', async () => {
      await service.update(actorOf(request), id, {
        name: text(form, 'name'),
        timezone: text(form, 'timezone'),
        require_2fa: text(form, 'require_2fa') === '1',
      });
      return done(reply, viewOf(request, reply, secret).t.workspaces.settings.saved, `/account/workspaces/${id}`);
    });
  });

  const deletePage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    id: number,
    typed: string,
    errors?: ValidationError['fields'],
  ) => {
    const workspace = await service.read(actorOf(request), id);
    const view = viewOf(request, reply, secret);
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
  };

  web.get('/account/workspaces/:id/delete', { schema: { params: ById } }, async (request, reply) => {
    const { id } = request.params as ById;
    const workspace = await service.read(actorOf(request), id);
    // Only an owner deletes (the policy's 403 naming the role), and a personal workspace has no such page.
    authorize({ role: workspace.role, scopes: null }, 'workspace.delete');
    if (workspace.personal) throw new NotFoundError('workspace');
    return deletePage(request, reply, 200, id, '');
  });

  web.post('/account/workspaces/:id/delete', { schema: { params: ById } }, async (request, reply) => {
    const { id } = request.params as ById;
    const typed = text(formOf(request), 'confirm');
    const workspace = await service.read(actorOf(request), id);
    const t = viewOf(request, reply, secret).t.workspaces.delete;
    if (typed.trim() !== workspace.name) return deletePage(request, reply, 422, id, typed, { confirm: [t.mismatch] });
    try {
      await service.delete(actorOf(request), id);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return deletePage(request, reply, 422, id, typed, { confirm: Object.values(error.fields).flat() });
    }
    return done(reply, t.done(workspace.name), '/account/workspaces');
  });

  web.post('/account/workspaces/:id/members/:userId/role', { schema: { params: ByMember } }, async (request, reply) => {
    const { id, userId } = request.params as ByMember;
    return orAgain(request, reply, id, 'members', async () => {
      await people.setRole(actorOf(request), id, userId, text(formOf(request), 'role'));
      return done(reply, viewOf(request, reply, secret).t.workspaces.people.changed, `/account/workspaces/${id}`);
    });
  });

  web.post(
    '/account/workspaces/:id/members/:userId/remove',
    { schema: { params: ByMember } },
    async (request, reply) => {
      const { id, userId } = request.params as ByMember;
      const self = userId === viewerOf(request).account.id;
      const workspace = self ? await service.read(actorOf(request), id) : null;
      return orAgain(request, reply, id, 'members', async () => {
        await people.remove(actorOf(request), id, userId);
        const t = viewOf(request, reply, secret).t.workspaces.people;
        return workspace
          ? done(reply, t.left(workspace.name), '/account/workspaces')
          : done(reply, t.removed, `/account/workspaces/${id}`);
      });
    },
  );

  // Answered with the page itself: the link and the key never travel in a cookie or a URL.
  web.post('/account/workspaces/:id/invitations', { schema: { params: ById } }, async (request, reply) => {
    const { id } = request.params as ById;
    const form = formOf(request);
    try {
      return await orAgain(request, reply, id, 'invite', async () => {
        const { invitation, token } = await invites.invite(actorOf(request), id, {
          email: text(form, 'email'),
          role: text(form, 'role'),
        });
        return showWorkspace(request, reply, 200, id, {
          made: 'invitation',
          email: invitation.email,
          link: `${ctx.urls.appUrl}/signup/invitation/${token}`,
        });
      });
    } catch (error) {
      // The invitation limits (INVITE_LIMIT_*): the form again, what was typed kept, the limit named on it.
      if (!(error instanceof TooManyAttemptsError)) throw error;
      reply.header('retry-after', String(error.retryAfterSeconds));
      const message = viewOf(request, reply, secret).t.workspaces.invites.tooMany(error.retryAfterSeconds);
      return showWorkspace(request, reply, 429, id, { form: 'invite', values: form, errors: { email: [message] } });
    }
  });

  web.post(
    '/account/workspaces/:id/invitations/:itemId/revoke',
    { schema: { params: ByItem } },
    async (request, reply) => {
      const { id, itemId } = request.params as ByItem;
      await invites.revoke(actorOf(request), id, itemId);
      return done(reply, viewOf(request, reply, secret).t.workspaces.invites.revoked, `/account/workspaces/${id}`);
    },
  );

  web.post('/account/workspaces/:id/api-keys', { schema: { params: ById } }, async (request, reply) => {
    const { id } = request.params as ById;
    const form = formOf(request);
    return orAgain(request, reply, id, 'key', async () => {
      const expiresAt = dayOf(text(form, 'expires_at'));
      if (expiresAt === undefined)
        throw ValidationError.of('expires_at', viewOf(request, reply, secret).t.workspaces.keys.badDate);
      const scopes = [form.scopes ?? []].flat();
      const made = await keyring.create(actorOf(request), id, {
        name: text(form, 'name'),
        scopes: scopes.length === 0 ? null : scopes,
        expiresAt,
      });
      return showWorkspace(request, reply, 200, id, {
        made: 'key',
        name: made.key.key.name ?? made.key.key.prefix,
        apiKey: made.apiKey,
      });
    });
  });

  web.post(
    '/account/workspaces/:id/api-keys/:itemId/revoke',
    { schema: { params: ByItem } },
    async (request, reply) => {
      const { id, itemId } = request.params as ByItem;
      await keyring.revoke(actorOf(request), id, itemId);
      return done(reply, viewOf(request, reply, secret).t.workspaces.keys.revoked, `/account/workspaces/${id}`);
    },
  );
};
