import type { FastifyInstance } from 'fastify';
import type { WebContext } from '../app/web-context.ts';

/** One family of screens: registers its routes in the web app's scope (plugin.ts runs the hooks). */
export type WebFeature = (web: FastifyInstance, ctx: WebContext) => void;
