import type { FastifyReply, RouteOptions } from 'fastify';
import { DeletedEnvelope, OneEnvelope, errorResponses } from '../shared/schemas/common.ts';
import { CreatedKeyRecord, KeyBody, KeyParams, WorkspaceKeyRecord, WorkspaceParams } from './schemas/workspace.ts';
import { created, deleted } from './envelopes.ts';
import { workspaceKeyRecord } from './presenters/workspace-records.ts';
import type { ApiContext } from './handlers/context.ts';
import { bind, base, consumes, listOf, tag, type Request } from './workspace-route-parts.ts';

/** A workspace's API keys: made (shown once), listed, revoked. */

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
export function keyRoutes(ctx: ApiContext): RouteOptions[] {
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
