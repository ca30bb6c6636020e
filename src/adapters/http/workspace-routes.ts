import type {} from '@fastify/swagger'; // adds tags, summary and security to route schemas
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
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

/** Workspaces, members, invitations and keys (docs/api.md; docs/adr/0064). The service checks every role. */
export function workspaceRoutes(ctx: ApiContext): RouteOptions[] {
  const { workspaces: ws, members, invitations, workspaceKeys: keys, clock } = ctx;
  const tag = { tags: ['Workspaces'], security };
  const routes: RouteOptions[] = [
    {
      method: 'GET',
      url: base,
      schema: {
        ...tag,
        summary: "The key's user's workspaces",
        response: { 200: listOf(WorkspaceRecord), ...errorResponses },
      },
      handler: async (request) => ({ data: (await ws.list(request.actor)).map(workspaceRecord), status: 200 as const }),
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
      handler: (async (request: FastifyRequest<{ Body: WorkspaceCreateBody }>, reply: FastifyReply) =>
        reply
          .code(201)
          .send(created(workspaceRecord(await ws.create(request.actor, request.account.id, request.body))))) as Handler,
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
      handler: (async (request: FastifyRequest<{ Params: WorkspaceParams }>) =>
        one(workspaceRecord(await ws.read(request.actor, request.params.id)))) as Handler,
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
      handler: (async (request: FastifyRequest<{ Params: WorkspaceParams; Body: WorkspaceUpdateBody }>) =>
        one(workspaceRecord(await ws.update(request.actor, request.params.id, request.body)))) as Handler,
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
      handler: (async (request: FastifyRequest<{ Params: WorkspaceParams }>) => {
        await ws.delete(request.actor, request.params.id);
        return deleted('workspace', request.params.id);
      }) as Handler,
    },
    {
      method: 'GET',
      url: `${base}/:id/members`,
      schema: {
        ...tag,
        summary: "A workspace's members",
        params: WorkspaceParams,
        response: { 200: listOf(MemberRecord), ...errorResponses },
      },
      handler: (async (request: FastifyRequest<{ Params: WorkspaceParams }>) => ({
        data: (await members.list(request.actor, request.params.id)).map(memberRecord),
        status: 200 as const,
      })) as Handler,
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
      handler: (async (request: FastifyRequest<{ Params: MemberParams; Body: RoleBody }>) =>
        one(
          memberRecord(
            await members.setRole(request.actor, request.params.id, request.params.user_id, request.body.role),
          ),
        )) as Handler,
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
      handler: (async (request: FastifyRequest<{ Params: MemberParams }>) => {
        await members.remove(request.actor, request.params.id, request.params.user_id);
        return deleted('member', request.params.user_id);
      }) as Handler,
    },
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
      handler: (async (
        request: FastifyRequest<{ Params: WorkspaceParams; Body: InvitationBody }>,
        reply: FastifyReply,
      ) => {
        const { invitation, token, mailed } = await invitations.invite(request.actor, request.params.id, request.body);
        return reply.code(201).send(
          created({
            ...invitationRecord(invitation, clock.now()),
            token,
            accept_url: acceptUrl(ctx.urls.appUrl, token),
            mailed,
          }),
        );
      }) as Handler,
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
      handler: (async (request: FastifyRequest<{ Params: WorkspaceParams }>) => {
        const now = clock.now();
        return {
          data: (await invitations.list(request.actor, request.params.id)).map((i) => invitationRecord(i, now)),
          status: 200 as const,
        };
      }) as Handler,
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
      handler: (async (request: FastifyRequest<{ Params: InvitationParams }>) => {
        await invitations.revoke(request.actor, request.params.id, request.params.invitation_id);
        return deleted('invitation', request.params.invitation_id);
      }) as Handler,
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
      handler: (async (request: FastifyRequest<{ Params: TokenParams }>) => {
        const { workspaceId, role } = await invitations.accept(request.actor, request.params.token);
        return one({ workspace_id: workspaceId, role });
      }) as Handler,
    },
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
      handler: (async (request: FastifyRequest<{ Params: WorkspaceParams; Body: KeyBody }>, reply: FastifyReply) => {
        const { expires_at, ...rest } = request.body;
        const expiresAt = expires_at === undefined || expires_at === null ? null : Date.parse(expires_at);
        const { key, apiKey } = await keys.create(request.actor, request.params.id, { ...rest, expiresAt });
        return reply.code(201).send(created({ ...workspaceKeyRecord(key), key: apiKey }));
      }) as Handler,
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
      handler: (async (request: FastifyRequest<{ Params: WorkspaceParams }>) => ({
        data: (await keys.list(request.actor, request.params.id)).map(workspaceKeyRecord),
        status: 200 as const,
      })) as Handler,
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
      handler: (async (request: FastifyRequest<{ Params: KeyParams }>) => {
        await keys.revoke(request.actor, request.params.id, request.params.key_id);
        return deleted('api_key', request.params.key_id);
      }) as Handler,
    },
  ];
  return routes;
}
