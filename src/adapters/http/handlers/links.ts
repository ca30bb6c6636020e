import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LinkBody, LinkListQuery } from '../../shared/schemas/link.ts';
import type { IdParams } from '../../shared/schemas/common.ts';
import { deleted, list, one, saved } from '../envelopes.ts';
import { ruleWarnings } from '../../../core/rules/rule-warnings.ts';
import { linkRecord } from '../../shared/presenters/link-record.ts';
import { pathOf, rawQueryOf, type ApiContext } from './context.ts';
import type { LinkInput } from '../../../core/links/link-input.ts';
import { refuseInvalidBody } from '../../shared/input/refuse-invalid-body.ts';
import { apiActor } from '../audit-actor.ts';

type Req<T extends { Params?: unknown; Querystring?: unknown; Body?: unknown }> = FastifyRequest<T>;

export function linkHandlers(ctx: ApiContext) {
  const record = (view: Parameters<typeof linkRecord>[0]) => linkRecord(view, ctx.urls);

  return {
    async list(request: Req<{ Querystring: LinkListQuery }>) {
      const q = request.query;
      const page = await ctx.links.list(
        request.account.id,
        {
          search: q.search,
          by: q.by,
          status: q.status,
          spaceId: q.space,
          domainId: q.domain,
          pixelId: q.pixel,
          tag: q.tag,
          health: q.health,
          sort: q.sort,
        },
        { page: q.page, perPage: q.per_page },
      );
      return list(page, record, ctx.urls.appUrl, pathOf(request), rawQueryOf(request));
    },
    /** POST /api/v1/links/{id}/check: the destination checked now, the link record after it. */
    async check(request: Req<{ Params: IdParams }>) {
      const { account, actor, params } = request;
      const { link } = await ctx.links.get(account.id, params.id);
      await ctx.health.checkNow(account.id, link, `key:${actor.keyId}`);
      return one(record(await ctx.links.get(account.id, params.id)));
    },
    async read(request: Req<{ Params: IdParams }>) {
      return one(record(await ctx.links.get(request.account.id, request.params.id)));
    },
    async create(request: Req<{ Body: LinkBody }>, reply: FastifyReply) {
      await refuseInvalidBody<LinkInput>(request, (rest) =>
        ctx.links.faultsOf(request.account.id, request.account.timezone, rest),
      );
      const view = await ctx.links.create(
        request.account.id,
        request.account.timezone,
        request.body,
        apiActor(request),
      );
      return reply.code(201).send(saved(record(view), 201, ruleWarnings(view.link.rules)));
    },
    async update(request: Req<{ Params: IdParams; Body: LinkBody }>) {
      await refuseInvalidBody<LinkInput>(
        request,
        (rest) => ctx.links.faultsOf(request.account.id, request.account.timezone, rest, request.params.id),
        ['domain'],
      );
      const { account, params, body } = request;
      const view = await ctx.links.update(account.id, account.timezone, params.id, body, apiActor(request));
      return saved(record(view), 200, ruleWarnings(view.link.rules));
    },
    async remove(request: Req<{ Params: IdParams }>) {
      await ctx.links.delete(request.account.id, request.params.id, apiActor(request));
      return deleted('link', request.params.id);
    },
  };
}
