import type { FastifyReply, RouteOptions } from 'fastify';
import { DeletedEnvelope, OneEnvelope, errorResponses } from '../shared/schemas/common.ts';
import {
  AcceptBody,
  AcceptedRecord,
  CreatedInvitationRecord,
  InvitationBody,
  InvitationParams,
  InvitationRecord,
  TokenParams,
  WorkspaceParams,
} from './schemas/workspace.ts';
import { created, deleted, one } from './envelopes.ts';
import { invitationRecord } from './presenters/workspace-records.ts';
import type { ApiContext } from './handlers/context.ts';
import { bind, base, consumes, listOf, tag, type Request } from './workspace-route-parts.ts';

/** Where an invitation is accepted: the web app's page, which works signed out (the API's accept takes the same token). */
function acceptUrl(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/$/, '')}/signup/invitation/${token}`;
}

async function invite(
  request: Request<{ Params: WorkspaceParams; Body: InvitationBody }>,
  reply: FastifyReply,
  ctx: ApiContext,
) {
  const { invitation, token, mailed } = await ctx.invitations.invite(request.actor, request.params.id, request.body);
  return reply.code(201).send(
    created({
      ...invitationRecord(invitation, ctx.clock.now()),
      token,
      accept_url: acceptUrl(ctx.urls.appUrl, token),
      mailed,
    }),
  );
}

async function listInvitations(request: Request<{ Params: WorkspaceParams }>, _reply: FastifyReply, ctx: ApiContext) {
  const now = ctx.clock.now();
  return {
    data: (await ctx.invitations.list(request.actor, request.params.id)).map((i) => invitationRecord(i, now)),
    status: 200 as const,
  };
}

async function revokeInvitation(request: Request<{ Params: InvitationParams }>, _reply: FastifyReply, ctx: ApiContext) {
  await ctx.invitations.revoke(request.actor, request.params.id, request.params.invitation_id);
  return deleted('invitation', request.params.invitation_id);
}

async function acceptInvitation(request: Request<{ Params: TokenParams }>, _reply: FastifyReply, ctx: ApiContext) {
  const { workspaceId, role } = await ctx.invitations.accept(request.actor, request.params.token);
  return one({ workspace_id: workspaceId, role });
}

/** Invitations: invite, list, revoke, and accept (any key of the invited email's user). */
export function invitationRoutes(ctx: ApiContext): RouteOptions[] {
  return [
    {
      method: 'POST',
      url: `${base}/:id/invitations`,
      schema: {
        ...tag,
        summary: 'Invite someone by email; the token and accept_url are shown in this answer only',
        consumes,
        params: WorkspaceParams,
        body: InvitationBody,
        response: { 201: OneEnvelope(CreatedInvitationRecord, 201), ...errorResponses },
      },
      handler: bind(ctx, invite),
    },
    {
      method: 'GET',
      url: `${base}/:id/invitations`,
      schema: {
        ...tag,
        summary: 'Invitations not yet accepted nor revoked',
        params: WorkspaceParams,
        response: { 200: listOf(InvitationRecord), ...errorResponses },
      },
      handler: bind(ctx, listInvitations),
    },
    {
      method: 'DELETE',
      url: `${base}/:id/invitations/:invitation_id`,
      schema: {
        ...tag,
        summary: 'Revoke an invitation',
        params: InvitationParams,
        response: { 200: DeletedEnvelope('invitation'), ...errorResponses },
      },
      handler: bind(ctx, revokeInvitation),
    },
    {
      method: 'POST',
      url: '/api/v1/invitations/:token/accept',
      schema: {
        ...tag,
        summary: "Accept an invitation with any key of the invited email's user",
        consumes,
        params: TokenParams,
        body: AcceptBody,
        response: { 200: OneEnvelope(AcceptedRecord), 410: errorResponses[404], ...errorResponses },
      },
      handler: bind(ctx, acceptInvitation),
    },
  ];
}
