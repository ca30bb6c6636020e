import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdParams } from '../../shared/schemas/common.ts';
import type { WebhookBody, WebhookPatchBody, WebhookSampleQuery } from '../schemas/webhook.ts';
import { sampleDeliveries, sampleDelivery } from '../../../core/webhooks/webhook-samples.ts';
import { linkRecord } from '../../shared/presenters/link-record.ts';
import { created, deleted, one } from '../envelopes.ts';
import { webhookRecord } from '../presenters/webhook-record.ts';
import type { ApiContext } from './context.ts';
import { apiActor } from '../audit-actor.ts';

export function webhookHandlers(ctx: ApiContext) {
  // The deliveries present links with this same presenter (src/app/container/webhooks.ts).
  const present = (view: Parameters<typeof linkRecord>[0]) => linkRecord(view, ctx.urls);
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
    update: async (request: FastifyRequest<{ Params: IdParams; Body: WebhookPatchBody }>) => {
      const { id } = request.params;
      return one(webhookRecord(await ctx.webhooks.update(request.account.id, id, request.body, apiActor(request))));
    },
    /** What a json-format delivery of the event looks like, for no-code tools' triggers; every event's without one. */
    sample: async (request: FastifyRequest<{ Querystring: WebhookSampleQuery }>) => {
      const { event } = request.query;
      return one(event === undefined ? sampleDeliveries(present) : sampleDelivery(event, present));
    },
    remove: async (request: FastifyRequest<{ Params: IdParams }>) => {
      await ctx.webhooks.delete(request.account.id, request.params.id, apiActor(request));
      return deleted('webhook', request.params.id);
    },
  };
}
