import type { FastifyRequest } from 'fastify';
import type { IdParams } from '../../shared/schemas/common.ts';
import type { TagBody } from '../schemas/tag.ts';
import type { Tag, TagInput } from '../../../core/tags/tag.ts';
import { deleted, one } from '../envelopes.ts';
import { iso } from '../../shared/presenters/records.ts';
import type { ApiContext } from './context.ts';
import { refuseInvalidBody } from '../../shared/input/refuse-invalid-body.ts';
import { apiActor } from '../audit-actor.ts';

function tagRecord(tag: Tag, links: number) {
  return {
    id: tag.id,
    name: tag.name,
    color: tag.color,
    links,
    created_at: iso(tag.createdAt),
    updated_at: iso(tag.updatedAt),
  };
}

export function tagHandlers(ctx: ApiContext) {
  const counted = async (accountId: number, id: number) =>
    (await ctx.tags.list(accountId)).find((t) => t.id === id)?.links ?? 0;
  return {
    list: async (request: FastifyRequest) => {
      return {
        data: (await ctx.tags.list(request.account.id)).map((t) => tagRecord(t, t.links)),
        status: 200 as const,
      };
    },
    read: async (request: FastifyRequest<{ Params: IdParams }>) => {
      const tag = await ctx.tags.get(request.account.id, request.params.id);
      return one(tagRecord(tag, await counted(request.account.id, tag.id)));
    },
    update: async (request: FastifyRequest<{ Params: IdParams; Body: TagBody }>) => {
      const { account, params } = request;
      await refuseInvalidBody<TagInput>(request, (rest) => ctx.tags.faultsOf(account.id, params.id, rest));
      const tag = await ctx.tags.update(account.id, params.id, request.body, apiActor(request));
      return one(tagRecord(tag, await counted(account.id, tag.id)));
    },
    remove: async (request: FastifyRequest<{ Params: IdParams }>) => {
      await ctx.tags.delete(request.account.id, request.params.id, apiActor(request));
      return deleted('tag', request.params.id);
    },
  };
}
