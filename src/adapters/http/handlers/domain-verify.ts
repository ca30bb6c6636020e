import type { FastifyRequest } from 'fastify';
import type { IdParams } from '../../shared/schemas/common.ts';
import { one } from '../envelopes.ts';
import { domainRecord } from '../../shared/presenters/records.ts';
import type { ApiContext } from './context.ts';
import { apiActor } from '../audit-actor.ts';

/** POST /api/v1/domains/{id}/verify: look for the token now; the record, or a 422 naming what was missing. */
export function domainVerifyHandler(ctx: ApiContext) {
  return async (request: FastifyRequest<{ Params: IdParams }>) =>
    one(domainRecord(await ctx.domains.verify(request.account.id, request.params.id, apiActor(request))));
}
