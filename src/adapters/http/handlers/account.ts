import type { FastifyReply, FastifyRequest } from 'fastify';
import { one } from '../envelopes.ts';
import { accountRecord } from '../presenters/records.ts';
import type { ApiContext } from './context.ts';

export function accountHandlers(ctx: ApiContext) {
  return {
    read: async (request: FastifyRequest) => {
      return one(accountRecord(request.account));
    },
    health: async (_request: FastifyRequest, reply: FastifyReply) => {
      try {
        await ctx.ping();
        return { status: 'ok', database: 'up' };
      } catch {
        return reply.code(503).send({ status: 'unavailable', database: 'down', message: 'The database is unavailable.' });
      }
    },
  };
}
