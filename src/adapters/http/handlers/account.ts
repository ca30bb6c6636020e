import type { FastifyReply, FastifyRequest } from 'fastify';
import { one } from '../envelopes.ts';
import { accountRecord } from '../../shared/presenters/records.ts';
import type { ApiContext } from './context.ts';

export function accountHandlers(ctx: ApiContext) {
  return {
    read: async (request: FastifyRequest) => {
      return one(accountRecord(request.account));
    },
    // Without Redis this instance still serves (caps, rotation and limits fall back, docs/design/outages.md):
    // 200 and "degraded", so a load balancer keeps it. Without the database it does not: 503, and
    // "redirects" says whether its redirect snapshot still answers every link it holds (docs/operations.md).
    health: async (_request: FastifyRequest, reply: FastifyReply) => {
      const up = ctx.redisUp();
      const redis = up === null ? {} : { redis: up ? 'up' : 'down' };
      try {
        await ctx.ping();
        return { status: up === false ? 'degraded' : 'ok', database: 'up', ...redis };
      } catch {
        const redirects = (await ctx.snapshotServes()) ? 'snapshot' : 'cache';
        return reply.code(503).send({
          status: 'unavailable',
          database: 'down',
          ...redis,
          redirects,
          message: 'The database is unavailable.',
        });
      }
    },
  };
}
