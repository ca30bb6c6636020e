import type {} from '@fastify/swagger'; // adds tags, summary and security to route schemas
import type { FastifyReply, FastifyRequest, RouteGenericInterface, RouteOptions } from 'fastify';
import { Type } from '@sinclair/typebox';
import { DeletedEnvelope, OneEnvelope, errorResponses } from '../shared/schemas/common.ts';
import {
  AcceptBody,
  AcceptedRecord,
  CreatedInvitationRecord,
  CreatedKeyRecord,
  InvitationBody,
  InvitationParams,
  InvitationRecord,
  KeyBody,
  KeyParams,
  MemberParams,
  MemberRecord,
  RoleBody,
  TokenParams,
  WorkspaceCreateBody,
  WorkspaceKeyRecord,
  WorkspaceParams,
  WorkspaceRecord,
  WorkspaceUpdateBody,
} from './schemas/workspace.ts';
import { created, deleted, one } from './envelopes.ts';
import { invitationRecord, memberRecord, workspaceKeyRecord, workspaceRecord } from './presenters/workspace-records.ts';
import type { ApiContext } from './handlers/context.ts';

type Handler = RouteOptions['handler'];
const security = [{ bearerAuth: [] }];
const consumes = ['application/x-www-form-urlencoded', 'application/json'];
const base = '/api/v1/workspaces';
const listOf = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({ data: Type.Array(item), status: Type.Literal(200) });

/** Where an invitation is accepted: the web app's page, which works signed out (the API's accept takes the same token). */
function acceptUrl(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/$/, '')}/signup/invitation/${token}`;
}

type Request<R extends RouteGenericInterface> = FastifyRequest<R>;
type WsHandler<R extends RouteGenericInterface> = (
  request: Request<R>,
  reply: FastifyReply,
  ctx: ApiContext,
) => Promise<unknown>;

/** A module-level handler given the API context, as Fastify calls it. */
function bind<R extends RouteGenericInterface>(ctx: ApiContext, handle: WsHandler<R>): Handler {
  return ((request: Request<R>, reply: FastifyReply) => handle(request, reply, ctx)) as Handler;
}

const tag = { tags: ['Workspaces'], security };

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
function memberRoutes(ctx: ApiContext): RouteOptions[] {
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
function invitationRoutes(ctx: ApiContext): RouteOptions[] {
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

async function createKey(
  request: Request<{ Params: WorkspaceParams; Body: KeyBody }>,
  reply: FastifyReply,
  ctx: ApiContext,
) {
  const { expires_at, ...rest } = request.body;
  const expiresAt = expires_at === undefined || expires_at === null ? null : Date.parse(expires_at);
  const { key, apiKey } = await ctx.workspaceKeys.create(request.actor, request.params.id, { ...rest, expiresAt });
  return reply.code(201).send(created({ ...workspaceKeyRecord(key), key: apiKey }));
}

async function listKeys(request: Request<{ Params: WorkspaceParams }>, _reply: FastifyReply, ctx: ApiContext) {
  return {
    data: (await ctx.workspaceKeys.list(request.actor, request.params.id)).map(workspaceKeyRecord),
    status: 200 as const,
  };
}

async function revokeKey(request: Request<{ Params: KeyParams }>, _reply: FastifyReply, ctx: ApiContext) {
  await ctx.workspaceKeys.revoke(request.actor, request.params.id, request.params.key_id);
  return deleted('api_key', request.params.key_id);
}

/** A workspace's API keys: make (shown once), list, revoke. */
function keyRoutes(ctx: ApiContext): RouteOptions[] {
  return [
    {
      method: 'POST',
      url: `${base}/:id/api-keys`,
      schema: {
        ...tag,
        summary: 'Make a key of yours in the workspace; the key is shown in this answer only',
        consumes,
        params: WorkspaceParams,
        body: KeyBody,
        response: { 201: OneEnvelope(CreatedKeyRecord, 201), ...errorResponses },
      },
      handler: bind(ctx, createKey),
    },
    {
      method: 'GET',
      url: `${base}/:id/api-keys`,
      schema: {
        ...tag,
        summary: 'Your keys in the workspace (admins: every key, with its user)',
        params: WorkspaceParams,
        response: { 200: listOf(WorkspaceKeyRecord), ...errorResponses },
      },
      handler: bind(ctx, listKeys),
    },
    {
      method: 'DELETE',
      url: `${base}/:id/api-keys/:key_id`,
      schema: {
        ...tag,
        summary: 'Revoke a key (yours; admins: any of the workspace)',
        params: KeyParams,
        response: { 200: DeletedEnvelope('api_key'), ...errorResponses },
      },
      handler: bind(ctx, revokeKey),
    },
  ];
}

/** Workspaces, members, invitations and keys (docs/api.md; docs/design/teams.md). The service checks every role. */
export function workspaceRoutes(ctx: ApiContext): RouteOptions[] {
  return [...workspaceCrudRoutes(ctx), ...memberRoutes(ctx), ...invitationRoutes(ctx), ...keyRoutes(ctx)];
}
