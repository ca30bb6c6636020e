import type { FastifyReply, FastifyRequest } from 'fastify';
import { TooManyAttemptsError, ValidationError } from '../../../../core/shared/errors.ts';
import { viewerOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import { text } from '../account/account-views.ts';
import { actorOf } from './workspace-actor.ts';
import {
  done,
  formOf,
  messagesOf,
  orAgain,
  renderWorkspace,
  type ById,
  type ByItem,
  type ByMember,
} from './workspace-page-parts.ts';

// The people of a workspace: roles, removals, invitations and API keys, each a form of the workspace page.

/** A day as typed in a date field, as the start of that day in UTC; null when empty; undefined when not a date. */
function dayOf(value: string): number | null | undefined {
  if (value === '') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const at = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(at).toISOString().startsWith(value) ? at : undefined;
}

export async function changeRole(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { id, userId } = request.params as ByMember;
  return orAgain(request, reply, ctx, id, 'members', async () => {
    await ctx.members.setRole(actorOf(request), id, userId, text(formOf(request), 'role'));
    return done(reply, messagesOf(request, reply, ctx).people.changed, `/account/workspaces/${id}`);
  });
}

/** Removes a member; one's own id is leaving (back to the list). */
export async function removeMember(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
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
export async function invite(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
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

export async function revokeInvitation(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { id, itemId } = request.params as ByItem;
  await ctx.invitations.revoke(actorOf(request), id, itemId);
  return done(reply, messagesOf(request, reply, ctx).invites.revoked, `/account/workspaces/${id}`);
}

/** Answered with the page itself: the key never travels in a cookie or a URL. */
export async function makeKey(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
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

export async function revokeKey(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { id, itemId } = request.params as ByItem;
  await ctx.workspaceKeys.revoke(actorOf(request), id, itemId);
  return done(reply, messagesOf(request, reply, ctx).keys.revoked, `/account/workspaces/${id}`);
}
