import type {} from '@fastify/swagger'; // adds tags, summary and security to route schemas
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { DeletedEnvelope, OneEnvelope, errorResponses } from '../shared/schemas/common.ts';
import { WorkspaceCreateBody, WorkspaceParams, WorkspaceRecord, WorkspaceUpdateBody } from './schemas/workspace.ts';
import { created, deleted, one } from './envelopes.ts';
import { workspaceRecord } from './presenters/workspace-records.ts';
import type { ApiContext } from './handlers/context.ts';
import { bind, base, consumes, listOf, tag, type Request } from './workspace-route-parts.ts';
import { memberRoutes } from './workspace-member-routes.ts';
import { invitationRoutes } from './workspace-invitation-routes.ts';
import { keyRoutes } from './workspace-key-routes.ts';

async function listWorkspaces(request: FastifyRequest, _reply: FastifyReply, ctx: ApiContext) {
  return { data: (await ctx.workspaces.list(request.actor)).map(workspaceRecord), status: 200 as const };
}

async function createWorkspace(request: Request<{ Body: WorkspaceCreateBody }>, reply: FastifyReply, ctx: ApiContext) {
  return reply
    .code(201)
    .send(created(workspaceRecord(await ctx.workspaces.create(request.actor, request.account.id, request.body))));
}

async function readWorkspace(request: Request<{ Params: WorkspaceParams }>, _reply: FastifyReply, ctx: ApiContext) {
  return one(workspaceRecord(await ctx.workspaces.read(request.actor, request.params.id)));
}

async function updateWorkspace(
  request: Request<{ Params: WorkspaceParams; Body: WorkspaceUpdateBody }>,
  _reply: FastifyReply,
  ctx: ApiContext,
) {
  return one(workspaceRecord(await ctx.workspaces.update(request.actor, request.params.id, request.body)));
}

async function deleteWorkspace(request: Request<{ Params: WorkspaceParams }>, _reply: FastifyReply, ctx: ApiContext) {
  await ctx.workspaces.delete(request.actor, request.params.id);
  return deleted('workspace', request.params.id);
}

/** The workspaces themselves: list, create, read, settings, delete. */
function workspaceCrudRoutes(ctx: ApiContext): RouteOptions[] {
  return [
    {
      method: 'GET',
      url: base,
      schema: {
        ...tag,
        summary: "The key's user's workspaces",
        response: { 200: listOf(WorkspaceRecord), ...errorResponses },
      },
      handler: bind(ctx, listWorkspaces),
    },
    {
      method: 'POST',
      url: base,
      schema: {
        ...tag,
        summary: 'Create a workspace (its owner: the key’s user)',
        consumes,
        body: WorkspaceCreateBody,
        response: { 201: OneEnvelope(WorkspaceRecord, 201), ...errorResponses },
      },
      handler: bind(ctx, createWorkspace),
    },
    {
      method: 'GET',
      url: `${base}/:id`,
      schema: {
        ...tag,
        summary: 'Read a workspace',
        params: WorkspaceParams,
        response: { 200: OneEnvelope(WorkspaceRecord), ...errorResponses },
      },
      handler: bind(ctx, readWorkspace),
    },
    {
      method: ['PUT', 'PATCH'],
      url: `${base}/:id`,
      schema: {
        ...tag,
        summary: "A workspace's settings (owners)",
        consumes,
        params: WorkspaceParams,
        body: WorkspaceUpdateBody,
        response: { 200: OneEnvelope(WorkspaceRecord), ...errorResponses },
      },
      handler: bind(ctx, updateWorkspace),
    },
    {
      method: 'DELETE',
      url: `${base}/:id`,
      schema: {
        ...tag,
        summary: 'Delete a team workspace and everything in it (owners)',
        params: WorkspaceParams,
        response: { 200: DeletedEnvelope('workspace'), ...errorResponses },
      },
      handler: bind(ctx, deleteWorkspace),
    },
  ];
}

/** Workspaces, members, invitations and keys (docs/api.md; docs/design/teams.md). The service checks every role. */
export function workspaceRoutes(ctx: ApiContext): RouteOptions[] {
  return [...workspaceCrudRoutes(ctx), ...memberRoutes(ctx), ...invitationRoutes(ctx), ...keyRoutes(ctx)];
}
