import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdParams } from '../../shared/schemas/common.ts';
import type { WebhookBody } from '../schemas/webhook.ts';
import { created, deleted, one } from '../envelopes.ts';
import { webhookRecord } from '../presenters/webhook-record.ts';
import type { ApiContext } from './context.ts';
import { apiActor } from '../audit-actor.ts';

export function webhookHandlers(ctx: ApiContext) {
  return {
    list: async (request: FastifyRequest) => {
      const hooks = await ctx.webhooks.list(request.account.id);
      return { data: hooks.map(webhookRecord), status: 200 as const };
    },
    read: async (request: FastifyRequest<{ Params: IdParams }>) => {
      return one(webhookRecord(await ctx.webhooks.get(request.account.id, request.params.id)));
    },
    create: async (request: FastifyRequest<{ Body: WebhookBody }>, reply: FastifyReply) => {
      const { webhook, secret } = await ctx.webhooks.create(request.account.id, request.body, apiActor(request));
      return reply.code(201).send(created({ ...webhookRecord(webhook), secret }));
    },
    remove: async (request: FastifyRequest<{ Params: IdParams }>) => {
      await ctx.webhooks.delete(request.account.id, request.params.id, apiActor(request));
      return deleted('webhook', request.params.id);
    },
  };
}
