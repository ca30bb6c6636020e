import type { FastifyReply, FastifyRequest, RouteGenericInterface, RouteOptions } from 'fastify';
import type { ApiContext } from './handlers/context.ts';

// How a route module keeps its handlers at module level, named, and still reaches the API context.

type Handler = RouteOptions['handler'];

export type Request<R extends RouteGenericInterface> = FastifyRequest<R>;
type ContextHandler<R extends RouteGenericInterface> = (
  request: Request<R>,
  reply: FastifyReply,
  ctx: ApiContext,
) => Promise<unknown>;

/** A module-level handler given the API context, as Fastify calls it. */
export function bind<R extends RouteGenericInterface>(ctx: ApiContext, handle: ContextHandler<R>): Handler {
  return ((request: Request<R>, reply: FastifyReply) => handle(request, reply, ctx)) as Handler;
}
