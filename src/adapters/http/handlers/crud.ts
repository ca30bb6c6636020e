import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdParams } from '../../shared/schemas/common.ts';
import { created, deleted, list, one } from '../envelopes.ts';
import { pathOf, rawQueryOf } from './context.ts';
import { refuseInvalidBody } from '../../shared/input/refuse-invalid-body.ts';
import type { OwnedRecordService } from '../../shared/services/owned-record-service.ts';
import { apiActor } from '../audit-actor.ts';

interface PageQuery {
  page: number;
  per_page: number;
}

export function crudHandlers<T, F, I, Q extends PageQuery, R>(opts: {
  service: OwnedRecordService<T, F, I>;
  object: string;
  record: (item: T) => R;
  filterOf: (query: Q) => F;
  appUrl: string;
}) {
  const { service, object, record } = opts;
  return {
    async list(request: FastifyRequest) {
      const q = request.query as Q; // validated against the route's query schema
      const page = await service.list(request.account.id, opts.filterOf(q), { page: q.page, perPage: q.per_page });
      return list(page, record, opts.appUrl, pathOf(request), rawQueryOf(request));
    },
    async read(request: FastifyRequest<{ Params: IdParams }>) {
      return one(record(await service.get(request.account.id, request.params.id)));
    },
    async create(request: FastifyRequest, reply: FastifyReply) {
      await refuseInvalidBody<I>(request, (rest) => service.faultsOf(request.account.id, rest));
      const input = request.body as I; // validated against the route's body schema
      return reply.code(201).send(created(record(await service.create(request.account.id, input, apiActor(request)))));
    },
    async update(request: FastifyRequest<{ Params: IdParams }>) {
      await refuseInvalidBody<I>(request, (rest) => service.faultsOf(request.account.id, rest, request.params.id));
      const input = request.body as I; // validated against the route's body schema
      return one(record(await service.update(request.account.id, request.params.id, input, apiActor(request))));
    },
    async remove(request: FastifyRequest<{ Params: IdParams }>) {
      await service.delete(request.account.id, request.params.id, apiActor(request));
      return deleted(object, request.params.id);
    },
  };
}
