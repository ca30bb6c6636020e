import type {} from '@fastify/swagger'; // adds tags, summary and security to route schemas
import type { FastifyReply, FastifyRequest, RouteGenericInterface, RouteOptions } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { ApiContext } from './handlers/context.ts';

// What the workspace route modules share: the handler binding and the schema parts.

type Handler = RouteOptions['handler'];
const security = [{ bearerAuth: [] }];
export const consumes = ['application/x-www-form-urlencoded', 'application/json'];
export const base = '/api/v1/workspaces';
export const listOf = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({ data: Type.Array(item), status: Type.Literal(200) });

export type Request<R extends RouteGenericInterface> = FastifyRequest<R>;
type WsHandler<R extends RouteGenericInterface> = (
  request: Request<R>,
  reply: FastifyReply,
  ctx: ApiContext,
) => Promise<unknown>;

/** A module-level handler given the API context, as Fastify calls it. */
export function bind<R extends RouteGenericInterface>(ctx: ApiContext, handle: WsHandler<R>): Handler {
  return ((request: Request<R>, reply: FastifyReply) => handle(request, reply, ctx)) as Handler;
}

export const tag = { tags: ['Workspaces'], security };
