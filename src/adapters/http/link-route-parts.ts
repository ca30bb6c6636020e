import type {} from '@fastify/swagger'; // adds tags, summary and security to route schemas

// What the route modules under a link (its history, its schedule) share: the handler binding and the schema parts.

export { bind, type Request } from './route-binding.ts';

export const base = '/api/v1/links/:id';
export const consumes = ['application/json', 'application/x-www-form-urlencoded'];
export const tag = { tags: ['Links'], security: [{ bearerAuth: [] }] };
