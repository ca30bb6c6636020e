import type { FastifyReply, RouteOptions } from 'fastify';
import { DeletedEnvelope, OneEnvelope, errorResponses } from '../shared/schemas/common.ts';
import { MemberParams, MemberRecord, RoleBody, WorkspaceParams } from './schemas/workspace.ts';
import { deleted, one } from './envelopes.ts';
import { memberRecord } from './presenters/workspace-records.ts';
import type { ApiContext } from './handlers/context.ts';
import { bind, base, consumes, listOf, tag, type Request } from './workspace-route-parts.ts';

/** Members of a workspace: listed, their role set, removed (docs/design/teams.md). */

async function listMembers(request: Request<{ Params: WorkspaceParams }>, _reply: FastifyReply, ctx: ApiContext) {
  return {
    data: (await ctx.members.list(request.actor, request.params.id)).map(memberRecord),
    status: 200 as const,
  };
}

async function setMemberRole(
  request: Request<{ Params: MemberParams; Body: RoleBody }>,
  _reply: FastifyReply,
  ctx: ApiContext,
) {
  const { id, user_id } = request.params;
  return one(memberRecord(await ctx.members.setRole(request.actor, id, user_id, request.body.role)));
}

async function removeMember(request: Request<{ Params: MemberParams }>, _reply: FastifyReply, ctx: ApiContext) {
  await ctx.members.remove(request.actor, request.params.id, request.params.user_id);
  return deleted('member', request.params.user_id);
}

/** A workspace's members: list, change a role, remove (or leave). */
export function memberRoutes(ctx: ApiContext): RouteOptions[] {
  return [
    {
      method: 'GET',
      url: `${base}/:id/members`,
      schema: {
        ...tag,
        summary: "A workspace's members",
        params: WorkspaceParams,
        response: { 200: listOf(MemberRecord), ...errorResponses },
      },
      handler: bind(ctx, listMembers),
    },
    {
      method: 'PUT',
      url: `${base}/:id/members/:user_id`,
      schema: {
        ...tag,
        summary: "Change a member's role",
        consumes,
        params: MemberParams,
        body: RoleBody,
        response: { 200: OneEnvelope(MemberRecord), ...errorResponses },
      },
      handler: bind(ctx, setMemberRole),
    },
    {
      method: 'DELETE',
      url: `${base}/:id/members/:user_id`,
      schema: {
        ...tag,
        summary: 'Remove a member (your own id: leave)',
        params: MemberParams,
        response: { 200: DeletedEnvelope('member'), ...errorResponses },
      },
      handler: bind(ctx, removeMember),
    },
  ];
}
