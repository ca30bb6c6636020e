import type {} from '@fastify/swagger'; // adds tags, summary and security to route schemas
import { Type } from '@sinclair/typebox';

// What the workspace route modules share: the handler binding and the schema parts.

export { bind, type Request } from './route-binding.ts';

const security = [{ bearerAuth: [] }];
export const consumes = ['application/x-www-form-urlencoded', 'application/json'];
export const base = '/api/v1/workspaces';
export const listOf = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({ data: Type.Array(item), status: Type.Literal(200) });

export const tag = { tags: ['Workspaces'], security };
